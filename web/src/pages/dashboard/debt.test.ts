import { describe, expect, it } from 'vitest';
import { debtWarning } from './debt';

describe('debtWarning', () => {
  it('says how many turns in debt are left before bankruptcy while cash is negative', () => {
    expect(debtWarning({ cash: -450, negative_turns: 2, bankruptcy_turns: 4 })).toEqual({
      tone: 'red',
      title: 'Your cash is negative',
      count: '2 of 4 turns in debt',
      message:
        '2 more turns ending with negative cash and your company goes bankrupt. Wages and operating costs are still charged every turn: sell goods, shares or buildings to get back above zero.',
    });
    expect(debtWarning({ cash: -1, negative_turns: 3, bankruptcy_turns: 4 })?.message).toMatch(/^One more turn ending with negative cash/);
    expect(debtWarning({ cash: -1, negative_turns: 1, bankruptcy_turns: 4 })).toMatchObject({
      count: '1 of 4 turns in debt',
      message: expect.stringMatching(/^3 more turns/),
    });
  });

  it('keeps a reminder while the count is not reset, and nothing without debt', () => {
    expect(debtWarning({ cash: 10, negative_turns: 2, bankruptcy_turns: 4 })).toMatchObject({ tone: 'yellow', count: '2 of 4 turns in debt' });
    expect(debtWarning({ cash: 0, negative_turns: 0, bankruptcy_turns: 4 })).toBeNull();
    expect(debtWarning({ cash: 100_000, negative_turns: 0, bankruptcy_turns: 4 })).toBeNull();
  });
});
