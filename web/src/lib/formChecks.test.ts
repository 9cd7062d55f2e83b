import { describe, expect, it } from 'vitest';
import {
  checkBuild,
  checkBuildingPurchase,
  checkCategorySelection,
  checkEquipmentUpgrade,
  checkHire,
  checkMarketTrade,
  checkPoliticsInvest,
  checkProductionRate,
  checkRecipeSelection,
  checkStockTrade,
  checkStorePrice,
  checkTransferToStore,
} from './formChecks';

const refused = (title: string, message: string) => ({ ok: false, error: { title, message } });

describe('form checks with the API request schemas (spec section 5 messages)', () => {
  it('market and stocks: a quantity above 0, up to the server limit', () => {
    expect(checkMarketTrade({ product_id: 3, quantity: 5, action: 'buy' })).toEqual({ ok: true, request: { product_id: 3, quantity: 5, action: 'buy' } });
    expect(checkMarketTrade({ product_id: 3, quantity: 0, action: 'sell' })).toEqual(refused('Invalid quantity', 'Please enter a quantity greater than 0'));
    expect(checkMarketTrade({ product_id: 3, quantity: 2.5, action: 'buy' })).toEqual(refused('Invalid quantity', 'Please enter a quantity greater than 0'));
    expect(checkMarketTrade({ product_id: 3, quantity: 1_000_001, action: 'buy' })).toEqual(refused('Invalid quantity', 'Please enter a quantity of at most 1,000,000'));
    expect(checkStockTrade({ company_id: 9, shares: 2, action: 'buy' })).toEqual({ ok: true, request: { company_id: 9, shares: 2, action: 'buy' } });
    expect(checkStockTrade({ company_id: 9, shares: 0, action: 'sell' })).toEqual(refused('Invalid quantity', 'Please enter a quantity greater than 0'));
    expect(checkStockTrade({ company_id: 9, shares: 2_000_000, action: 'buy' })).toEqual(refused('Invalid quantity', 'You can trade at most 1,000,000 shares at once'));
  });

  it('politics: a country first, then the amount the server accepts', () => {
    expect(checkPoliticsInvest({ country_id: undefined, amount: 3_000 })).toEqual(refused('No country selected', 'Please select a country first'));
    expect(checkPoliticsInvest({ country_id: 4, amount: 3_000 })).toEqual({ ok: true, request: { country_id: 4, amount: 3_000 } });
    expect(checkPoliticsInvest({ country_id: 4, amount: 2_000_000_000 })).toEqual(refused('Invalid amount', 'Amount must be at most $1,000,000,000.00'));
  });

  it('build: both type and city', () => {
    expect(checkBuild({ type: 'farm', city_id: 7 })).toEqual({ ok: true, request: { type: 'farm', city_id: 7 } });
    expect(checkBuild({ type: null, city_id: 7 })).toEqual(refused('Missing selection', 'Please select both building type and city'));
    expect(checkBuild({ type: 'farm', city_id: undefined })).toEqual(refused('Missing selection', 'Please select both building type and city'));
  });

  it('hire 1-10, equipment 2-5 above the current level, production rate 10-200', () => {
    expect(checkHire({ id: 1, count: 10 })).toEqual({ ok: true, request: { id: 1, count: 10 } });
    for (const count of [0, 11, 1.5, '']) expect(checkHire({ id: 1, count })).toEqual(refused('Invalid number', 'Please enter a number between 1 and 10'));

    expect(checkEquipmentUpgrade({ id: 1, target_level: '3' }, 2)).toEqual({ ok: true, request: { id: 1, target_level: 3 } });
    for (const level of [null, 6, '1']) expect(checkEquipmentUpgrade({ id: 1, target_level: level }, 1)).toEqual(refused('Invalid level', 'Please select a valid level (2-5)'));
    // The server's schema takes level 1-5; at or below the current level only its operation refuses (422): checked here too.
    expect(checkEquipmentUpgrade({ id: 1, target_level: 3 }, 3)).toEqual(refused('Invalid level', 'Please select a valid level (2-5)'));

    expect(checkProductionRate({ id: 1, new_rate: 150 })).toEqual({ ok: true, request: { id: 1, new_rate: 150 } });
    for (const rate of [9, 201, 55.5]) expect(checkProductionRate({ id: 1, new_rate: rate })).toEqual(refused('Invalid rate', 'Production rate must be between 10 and 200'));
  });

  it('purchases and transfers: a valid quantity, then a valid price', () => {
    expect(checkBuildingPurchase({ id: 2, product_id: 5, quantity: 10 })).toEqual({ ok: true, request: { id: 2, product_id: 5, quantity: 10 } });
    for (const quantity of [0, -1, 1.5, '']) expect(checkBuildingPurchase({ id: 2, product_id: 5, quantity })).toEqual(refused('Invalid quantity', 'Please enter a valid quantity'));
    expect(checkTransferToStore({ id: 2, product_id: 5, quantity: 4, retail_price: 6.9 })).toEqual({ ok: true, request: { id: 2, product_id: 5, quantity: 4, retail_price: 6.9 } });
    expect(checkTransferToStore({ id: 2, product_id: 5, quantity: 0, retail_price: 0 })).toEqual(refused('Invalid quantity', 'Please enter a valid quantity'));
    for (const price of [0, -2, '', 0.001]) {
      expect(checkTransferToStore({ id: 2, product_id: 5, quantity: 4, retail_price: price })).toEqual(refused('Invalid price', 'Please enter a valid price'));
    }
  });

  it('store price edit takes the typed text; recipe and category need a choice', () => {
    expect(checkStorePrice({ id: 2, product_id: 5, retail_price: '4.50' })).toEqual({ ok: true, request: { id: 2, product_id: 5, retail_price: 4.5 } });
    for (const text of ['', 'abc', '0', '-3']) expect(checkStorePrice({ id: 2, product_id: 5, retail_price: text }).ok).toBe(false);
    expect(checkRecipeSelection({ id: 2, recipe_id: '' }).ok).toBe(false);
    expect(checkRecipeSelection({ id: 2, recipe_id: '12' })).toEqual({ ok: true, request: { id: 2, recipe_id: 12 } });
    expect(checkCategorySelection({ id: 2, category: null }).ok).toBe(false);
    expect(checkCategorySelection({ id: 2, category: 'Not a category' }).ok).toBe(false);
    expect(checkCategorySelection({ id: 2, category: 'Food Products' })).toEqual({ ok: true, request: { id: 2, category: 'Food Products' } });
  });
});
