import { useNavigate } from 'react-router-dom';
import { notifyFailure, notifySuccess } from '../lib/notify';
import { trpc } from '../trpc';

/** Switches the session's world (the header's switcher, the dashboard's class worlds, /worlds): toast, then the dashboard. */
export function useSwitchWorld() {
  const navigate = useNavigate();
  return trpc.worlds.switch.useMutation({
    onSuccess: (world) => {
      notifySuccess('World switched', `You are playing in ${world.name}.`);
      void navigate('/');
    },
    onError: (error) => notifyFailure('Error', error, 'Could not switch worlds. Please try again.'),
  });
}
