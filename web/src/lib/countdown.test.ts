import { describe, expect, it } from 'vitest';
import { inProcessingWindow, isTurnDue, nextTurnLabel, timeUntilNextTurn, botsFooterLine, turnsFooterLine } from './countdown';

const at = (iso: string) => Date.parse(iso);

describe('nextTurnLabel', () => {
  it("reads 'Loading...' before the world state arrives", () => {
    expect(nextTurnLabel(undefined, at('2026-01-01T00:00:00Z'))).toBe('Loading...');
    expect(nextTurnLabel(null, at('2026-01-01T00:00:00Z'))).toBe('Loading...');
  });

  it('shows the processing window for 30 minutes after the last turn, counting down', () => {
    const world = { last_turn_at: '2026-01-01T00:30:00Z', next_turn_at: '2026-01-01T12:30:00Z' };
    expect(nextTurnLabel(world, at('2026-01-01T00:30:00Z'))).toBe('Processing (30m 0s)');
    expect(nextTurnLabel(world, at('2026-01-01T00:30:01Z'))).toBe('Processing (29m 59s)');
    expect(nextTurnLabel(world, at('2026-01-01T00:59:59Z'))).toBe('Processing (0m 1s)');
    expect(nextTurnLabel(world, at('2026-01-01T00:59:59.500Z'))).toBe('Processing (0m 1s)');
  });

  it('counts down to the next turn as Xh Ym Zs after the window', () => {
    const world = { last_turn_at: '2026-01-01T00:30:00Z', next_turn_at: '2026-01-01T12:30:00Z' };
    expect(nextTurnLabel(world, at('2026-01-01T01:00:00Z'))).toBe('11h 30m 0s');
    expect(nextTurnLabel(world, at('2026-01-01T12:29:59Z'))).toBe('0h 0m 1s');
    expect(nextTurnLabel(world, at('2026-01-01T02:04:05.900Z'))).toBe('10h 25m 54s');
  });

  it('counts down when no turn has run yet', () => {
    const world = { last_turn_at: null, next_turn_at: '2026-01-01T12:30:00Z' };
    expect(nextTurnLabel(world, at('2026-01-01T10:00:00Z'))).toBe('2h 30m 0s');
  });

  it("reads 'Turn starting...' once the next turn time has passed", () => {
    const world = { last_turn_at: '2026-01-01T00:30:00Z', next_turn_at: '2026-01-01T12:30:00Z' };
    expect(nextTurnLabel(world, at('2026-01-01T12:30:00Z'))).toBe('Turn starting...');
    expect(nextTurnLabel(world, at('2026-01-02T00:00:00Z'))).toBe('Turn starting...');
  });

  it('prefers the processing window even when the next turn time is already past (a late manual turn)', () => {
    const world = { last_turn_at: '2026-01-01T12:40:00Z', next_turn_at: '2026-01-01T12:30:00Z' };
    expect(nextTurnLabel(world, at('2026-01-01T12:50:00Z'))).toBe('Processing (20m 0s)');
  });

  it("reads 'N/A' when the world has no next turn time, and ignores unparsable times", () => {
    expect(nextTurnLabel({ last_turn_at: null, next_turn_at: null }, at('2026-01-01T00:00:00Z'))).toBe('N/A');
    expect(nextTurnLabel({ last_turn_at: 'garbage', next_turn_at: 'nonsense' }, at('2026-01-01T00:00:00Z'))).toBe('N/A');
    // Without a schedule (TURN_SCHEDULE_ENABLED=0, a manual class world) the server's words instead.
    expect(nextTurnLabel({ last_turn_at: null, next_turn_at: null, status: 'active', turns: 'Manual turns' }, at('2026-01-01T00:00:00Z'))).toBe('Manual turns');
  });

  it('does not show processing for a last turn in the future (clock skew)', () => {
    const world = { last_turn_at: '2026-01-01T00:30:10Z', next_turn_at: '2026-01-01T12:30:00Z' };
    expect(nextTurnLabel(world, at('2026-01-01T00:30:00Z'))).toBe('12h 0m 0s');
  });
});

describe('timeUntilNextTurn', () => {
  it("gives hours and minutes, 'Overdue' when past, 'N/A' when unknown", () => {
    expect(timeUntilNextTurn('2026-01-01T12:30:00Z', at('2026-01-01T10:00:30Z'))).toBe('2h 29m');
    expect(timeUntilNextTurn('2026-01-01T12:30:00Z', at('2026-01-01T12:30:00Z'))).toBe('Overdue');
    expect(timeUntilNextTurn(null, at('2026-01-01T12:30:00Z'))).toBe('N/A');
    expect(timeUntilNextTurn(undefined, at('2026-01-01T12:30:00Z'))).toBe('N/A');
  });
});

describe('isTurnDue', () => {
  it('is true only once the next turn time has passed', () => {
    const world = { last_turn_at: null, next_turn_at: '2026-01-01T12:30:00Z' };
    expect(isTurnDue(world, at('2026-01-01T12:29:59Z'))).toBe(false);
    expect(isTurnDue(world, at('2026-01-01T12:30:00Z'))).toBe(true);
    expect(isTurnDue(undefined, at('2026-01-01T12:30:00Z'))).toBe(false);
  });

  it('is never true while the clock is paused or the world has ended (no polling for a turn that will not come)', () => {
    const slot = { last_turn_at: null, next_turn_at: '2026-01-01T12:30:00Z' };
    expect(isTurnDue({ ...slot, status: 'active' }, at('2026-01-01T13:00:00Z'))).toBe(true);
    expect(isTurnDue({ ...slot, status: 'paused' }, at('2026-01-01T13:00:00Z'))).toBe(false);
    expect(isTurnDue({ ...slot, status: 'ended' }, at('2026-01-01T13:00:00Z'))).toBe(false);
  });
});

describe('a paused or ended clock', () => {
  it("reads 'Paused' while the clock is paused, though the schedule keeps its next slot", () => {
    const world = { last_turn_at: '2026-01-01T00:30:00Z', next_turn_at: '2026-01-01T12:30:00Z', status: 'paused' };
    expect(nextTurnLabel(world, at('2026-01-01T05:00:00Z'))).toBe('Paused');
    expect(nextTurnLabel(world, at('2026-01-01T13:00:00Z'))).toBe('Paused');
    // A turn run by hand while paused still shows its processing window first.
    expect(nextTurnLabel(world, at('2026-01-01T00:40:00Z'))).toBe('Processing (20m 0s)');
  });

  it("reads 'Ended' for an ended world, and counts down as before for a running one", () => {
    expect(nextTurnLabel({ last_turn_at: null, next_turn_at: null, status: 'ended' }, at('2026-01-01T05:00:00Z'))).toBe('Ended');
    expect(nextTurnLabel({ last_turn_at: null, next_turn_at: '2026-01-01T12:30:00Z', status: 'active' }, at('2026-01-01T10:00:00Z'))).toBe('2h 30m 0s');
  });
});

describe('inProcessingWindow', () => {
  it('is the 30 minutes after the last turn (the header then links to its results), never before it or without one', () => {
    const world = { last_turn_at: '2026-01-01T00:30:00Z', next_turn_at: null };
    expect(inProcessingWindow(world, at('2026-01-01T00:30:00Z'))).toBe(true);
    expect(inProcessingWindow(world, at('2026-01-01T00:59:59Z'))).toBe(true);
    expect(inProcessingWindow(world, at('2026-01-01T01:00:00Z'))).toBe(false);
    expect(inProcessingWindow(world, at('2026-01-01T00:29:59Z'))).toBe(false);
    expect(inProcessingWindow({ last_turn_at: null, next_turn_at: null }, at('2026-01-01T00:30:00Z'))).toBe(false);
    expect(inProcessingWindow(undefined, at('2026-01-01T00:30:00Z'))).toBe(false);
  });
});

describe('turnsFooterLine (the side menu footer)', () => {
  it("keeps the spec's 'Turns every 12 hours' for the scheduled public world, and says what is true elsewhere", () => {
    expect(turnsFooterLine('Every 12 hours')).toBe('Turns every 12 hours');
    expect(turnsFooterLine('Manual turns')).toBe('Manual turns');
    expect(turnsFooterLine('Every 5 min')).toBe('Turns every 5 min');
    expect(turnsFooterLine('Paused')).toBe('Turns paused');
    expect(turnsFooterLine('Ended')).toBe('World ended');
    expect(turnsFooterLine(undefined)).toBeNull();
  });
});

describe('botsFooterLine (the side menu footer)', () => {
  it("keeps the spec's 'Compete with 25+ AI bots' in the public world; a class world says its own number", () => {
    expect(botsFooterLine({ kind: 'public', bots: 10 })).toBe('Compete with 25+ AI bots');
    expect(botsFooterLine({ kind: 'private', bots: 2 })).toBe('Compete with 2 AI bots');
    expect(botsFooterLine({ kind: 'private', bots: 1 })).toBe('Compete with 1 AI bot');
    expect(botsFooterLine({ kind: 'private', bots: 0 })).toBe('No AI bots: only your classmates');
    expect(botsFooterLine(undefined)).toBeNull();
  });
});
