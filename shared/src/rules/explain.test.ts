/**
 * "Why this number" shows money in dollars, so its formula and its terms' names speak dollars too: a
 * script reading `terms[].name` and `formula` (GET /api/company's net_worth_why, a market or stock
 * quote's why, a building's forecast) must not read `cash_cents` beside a value of dollars.
 */
import { describe, expect, it } from 'vitest';
import { moneyNodes } from './expr.ts';
import { netWorthRule } from './finance.ts';
import { RULES } from './index.ts';
import { goodsBuyCostRule, marketMidPriceRule, nextMarketPriceRule } from './market.ts';
import { wagesRule } from './production.ts';
import { storeCapacityRule, storeRevenueRule } from './retail.ts';

describe('why this number, in dollars', () => {
  it('names the net worth terms and formula without cents, and the values add up in dollars', () => {
    const why = netWorthRule.explain({ cashCents: 1_234_567, goodsCents: 50_000, buildingsCents: 2_000_000, holdingsCents: 10_050, claimsCents: 99 });
    expect(why.formula).toBe('cash + goods + buildings + holdings - claims');
    expect(why.terms.map((term) => [term.name, term.value, term.unit])).toEqual([
      ['cash', 12_345.67, 'dollars'],
      ['goods', 500, 'dollars'],
      ['buildings', 20_000, 'dollars'],
      ['holdings', 100.5, 'dollars'],
      ['claims', 0.99, 'dollars'],
    ]);
    expect(why.value).toBeCloseTo(12_345.67 + 500 + 20_000 + 100.5 - 0.99, 2);
  });

  it('writes amounts of money in the formula in dollars and rounding to the cent as round(x, 2)', () => {
    // Wages: $100 an employee (10,000 cents), to the cent; the formula, read in dollars, gives the value.
    const wages = wagesRule.explain({ employees: 3, productionRate: 150 });
    expect(wages.formula).toBe('round(employees x 100 x (10,000 + 150 x max(0, production_rate - 100)) / 10,000, 2)');
    expect(wages.value).toBe(Math.round(((3 * 100 * (10_000 + 150 * 50)) / 10_000) * 100) / 100);
    expect(storeCapacityRule.explain({ efficiency: 100, productionRate: 100, bonus: 0 })).toMatchObject({
      value: 30_000,
      formula: 'floor(30,000 x efficiency x production_rate x max(0, 100 + bonus) / 1,000,000, 2)',
    });
    const revenue = storeRevenueRule.explain({ units: 7, retailCents: 399, priceBonus: 0 });
    expect(revenue.formula).toBe('round(units x retail x (100 + price_bonus) / 100, 2)');
    expect(revenue.terms.map((term) => [term.name, term.value])).toEqual([
      ['units', 7],
      ['retail', 3.99],
      ['price_bonus', 0],
    ]);
    expect(revenue.value).toBe(27.93);
    // The smallest price is one cent; a market quote rounds up to the cent.
    expect(marketMidPriceRule.explain({ price: 250, depth: 100, flow: 0 }).formula).toBe('max(0.01, round(price x e^(flow / depth), 2))');
    expect(goodsBuyCostRule.explain({ price: 250, depth: 100, flow: 0, quantity: 1, marginBp: 0 }).formula).toBe(
      'ceil(price x depth x (e^((flow + quantity) / depth) - e^(flow / depth)) x (10,250 + margin_bp) / 10,000, 2)',
    );
    // A rounding beside money in a min or max is to the cent too (the price of a turn, of ln and e^).
    expect(nextMarketPriceRule.explain({ price: 250, basePrice: 250, targetPrice: 250, flow: 0, depth: 100, noiseBp: 0 }).formula).toBe(
      'max(max(0.01, ceil(base_price x 25 / 100, 2)), min(round(e^(0.9 x (ln(price) + flow / depth) + 0.1 x ln(target_price) + noise_bp / 10,000), 2), floor(base_price x 400 / 100, 2)))',
    );
  });

  it('every rule of money is money in its formula, every other rule is not, and no term says cents', () => {
    for (const rule of RULES) {
      expect(moneyNodes(rule.tree, rule.inputs).has(rule.tree), rule.name).toBe(rule.cents);
      expect(rule.dollarFormula, rule.name).not.toMatch(/cents/);
      const values = Object.fromEntries(Object.entries(rule.inputs).map(([name, spec]) => [name, Math.max(1, spec.min)]));
      for (const term of rule.explain(values).terms) expect(term.name, `${rule.name}: ${term.name}`).not.toMatch(/cents/);
    }
  });
});
