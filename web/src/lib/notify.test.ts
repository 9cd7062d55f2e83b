/**
 * The turn's toast says the week the server answered at once (notifyLatest), where the app shows one
 * toast at a time (App.tsx): an older 'Turn complete' or another toast on screen does not keep it
 * waiting in the queue. The worlds journey sees it in the browser; this is the rule itself, without
 * the 5 s a toast stays (a journey cannot tell "at once" from "5 s later" on a busy machine).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { notificationsStore } from '@mantine/notifications';
import { notifyLatest, notifySuccess } from './notify';

const onScreen = () => notificationsStore.getState().notifications.map((toast) => toast.message);
const waiting = () => notificationsStore.getState().queue.map((toast) => toast.message);

beforeEach(() => {
  // The app's <Notifications limit={1}>, which sets the store's limit when it mounts.
  notificationsStore.setState({ ...notificationsStore.getState(), notifications: [], queue: [], limit: 1 });
});

describe('the latest toast of its kind', () => {
  it('replaces the previous one of its kind on screen instead of queuing behind it', () => {
    notifyLatest('world-turn', 'Turn complete', 'The world is now in week 3.');
    notifyLatest('world-turn', 'Turn complete', 'The world is now in week 4.');
    expect(onScreen()).toEqual(['The world is now in week 4.']);
    expect(waiting()).toEqual([]);
  });

  it('shows before a toast of another kind, which steps back into the queue', () => {
    notifySuccess('Shock applied', 'Consumer demand for White Bread -40% for 2 weeks');
    notifyLatest('world-turn', 'Turn complete', 'The world is now in week 3.');
    expect(onScreen()).toEqual(['The world is now in week 3.']);
    expect(waiting()).toEqual(['Consumer demand for White Bread -40% for 2 weeks']);
  });
});
