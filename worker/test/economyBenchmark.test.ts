/**
 * The economy benchmark's money check (worker/bench/economy/measure.ts): it must notice money that
 * appears without a documented ledger reason, transfers between companies that do not net to zero,
 * and cash that moved without a ledger row.
 */
import { describe, expect, it } from 'vitest';
import { checkMoney } from '../bench/economy/measure.ts';

const documented = new Map<string, number>([
  ['store_sales', 5_000],
  ['wages', -2_000],
  ['dividend', 300],
  ['dividend_paid', -300],
  ['stock_buy', -1_000],
  ['share_issue', 1_000],
]);

describe('the economy benchmark money check', () => {
  it('passes when the cash change is the ledger and every reason is documented', () => {
    const check = checkMoney(100_000, 103_000, documented);
    expect(check).toMatchObject({ ok: true, ledgerCents: 3_000, undocumented: [], unbalanced: [] });
  });

  it('fails on cash that moved without a ledger row', () => {
    expect(checkMoney(100_000, 103_001, documented).ok).toBe(false);
  });

  it('fails on a reason the docs do not list (money from nowhere)', () => {
    const check = checkMoney(100_000, 103_500, new Map([...documented, ['gift', 500]]));
    expect(check.ok).toBe(false);
    expect(check.undocumented).toEqual(['gift']);
  });

  it('fails when a transfer between companies does not net to zero', () => {
    const check = checkMoney(100_000, 103_300, new Map([...documented, ['dividend', 600]]));
    expect(check.ok).toBe(false);
    expect(check.unbalanced).toEqual(['dividend + dividend_paid = 300']);
  });

  it("allows buybacks paid into a bankrupt holder's liquidation instead of a stock sale", () => {
    const ledger = new Map([...documented, ['liquidation', 700], ['share_buyback', -700]]);
    expect(checkMoney(100_000, 103_000, ledger).ok).toBe(true);
  });
});
