import { describe, expect, it } from 'vitest';
import { profitQuestion } from './assignments.ts';

const week = {
  profitCents: -500_00,
  storeRevenueCents: 1_200_00,
  marketSalesCents: 0,
  marketPurchasesCents: 0,
  wagesCents: 900_00,
  operatingCents: 300_00,
  subsidyCents: 0,
  taxCents: 0,
};

describe('the question "which term moved your profit most"', () => {
  it('offers the terms that moved and answers the largest effect either way, the goods being what the rest leaves', () => {
    // 1,200 - 900 - 300 = 0 listed; the profit is -500, so the goods lost 500.
    const question = profitQuestion(week)!;
    expect(question.options.map((option) => option.name)).toEqual(['store_revenue', 'wages', 'operating', 'goods_change']);
    expect(question.effects).toMatchObject({ store_revenue: 1_200_00, wages: -900_00, operating: -300_00, goods_change: -500_00 });
    expect(question.answer).toBe('store_revenue');
    // A cost can be the answer: wages bigger than the revenue.
    expect(profitQuestion({ ...week, wagesCents: 2_000_00, profitCents: -1_600_00 })!.answer).toBe('wages');
  });

  it('takes the first in the report order among equal effects, and asks nothing about a week with fewer than two terms', () => {
    expect(profitQuestion({ ...week, wagesCents: 1_200_00, operatingCents: 0, profitCents: 0 })!.answer).toBe('store_revenue');
    expect(profitQuestion({ ...week, storeRevenueCents: 0, wagesCents: 0, operatingCents: 0, profitCents: 0 })).toBeNull();
    expect(profitQuestion({ ...week, storeRevenueCents: 0, wagesCents: 100_00, operatingCents: 0, profitCents: -100_00 })).toBeNull();
  });
});
