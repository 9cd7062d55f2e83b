import { describe, expect, it } from 'vitest';
import {
  checkBuild,
  checkBuildingPurchase,
  checkContractOffer,
  checkExchangeOrder,
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
  checkWarehouseMove,
  moreThanHeld,
  readNumber,
} from './formChecks';

/** The message a form shows under `field` for what the player typed. */
const messageFor = (check: { ok: boolean; errors: Record<string, string | undefined> }, field: string) => (check.ok ? undefined : check.errors[field]);

describe('reading a typed number: plainly a number of its kind, never a guess', () => {
  it('whole numbers are digits only', () => {
    expect(readNumber('12', 'whole')).toBe(12);
    expect(readNumber(' 7 ', 'whole')).toBe(7);
    for (const text of ['', ' ', '2.5', '-3', '+3', '1e3', '1,000', '12abc', '0x10', 'Infinity']) expect(readNumber(text, 'whole')).toBeNull();
  });
  it('money takes at most two decimals', () => {
    expect(readNumber('4.5', 'money')).toBe(4.5);
    expect(readNumber('4.35', 'money')).toBe(4.35);
    expect(readNumber('.99', 'money')).toBe(0.99);
    expect(readNumber('10', 'money')).toBe(10);
    for (const text of ['', '4.355', '0.001', '-1', '1e2', '$5', '4,50', '4.']) expect(readNumber(text, 'money')).toBeNull();
  });
});

describe('form schemas (the API request schemas, with the spec section 5 messages under each field)', () => {
  it('market and stocks: a whole quantity above 0, up to the server limit', () => {
    expect(checkMarketTrade({ product_id: 3, quantity: '5', action: 'buy' })).toMatchObject({
      ok: true,
      request: { product_id: 3, quantity: 5, action: 'buy' },
    });
    for (const text of ['0', '-1', '2.5', '', 'abc', '1e3']) {
      expect(messageFor(checkMarketTrade({ product_id: 3, quantity: text, action: 'sell' }), 'quantity')).toBe('Please enter a quantity greater than 0');
    }
    expect(messageFor(checkMarketTrade({ product_id: 3, quantity: '1000001', action: 'buy' }), 'quantity')).toBe(
      'Please enter a quantity of at most 1,000,000',
    );
    expect(checkStockTrade({ company_id: 9, shares: '2', action: 'buy' })).toMatchObject({ ok: true, request: { company_id: 9, shares: 2, action: 'buy' } });
    // '2.5' shares is refused, never read as 25 or 2.
    expect(messageFor(checkStockTrade({ company_id: 9, shares: '2.5', action: 'sell' }), 'shares')).toBe('Please enter a quantity greater than 0');
    expect(messageFor(checkStockTrade({ company_id: 9, shares: '2000000', action: 'buy' }), 'shares')).toBe('You can trade at most 1,000,000 shares at once');
  });

  it('exchange and contracts: 1.5 units is told to be whole, 0 to be above 0', () => {
    const order = (quantity: string) => checkExchangeOrder({ product_id: 3, side: 'buy', quantity, limit_price: '4.50', weeks: 1 });
    const offer = (quantity: string) => checkContractOffer({ buyer_company_id: 7, product_id: 3, quantity, unit_price: '4.50', expires_week: 9 });
    for (const check of [order, offer]) {
      expect(check('12')).toMatchObject({ ok: true, request: { quantity: 12 } });
      for (const text of ['1.5', '.5', '2.0']) {
        expect(check(text)).toMatchObject({ ok: false, error: { title: 'Invalid quantity', message: 'Please enter a whole number of units' } });
      }
      for (const text of ['0', '', 'abc', '-1']) expect(messageFor(check(text), 'quantity')).toBe('Please enter a quantity greater than 0');
    }
  });

  it('politics: a country first, then whole units of at least 1 (never read as 1)', () => {
    const noCountry = checkPoliticsInvest({ country_id: undefined, units: '3' });
    expect(noCountry).toMatchObject({ ok: false, error: { title: 'No country selected', message: 'Please select a country first' } });
    expect(checkPoliticsInvest({ country_id: 4, units: '3' })).toMatchObject({ ok: true, request: { country_id: 4, amount: 3_000 } });
    for (const text of ['0', '', 'abc', '1.5', '-2']) {
      expect(messageFor(checkPoliticsInvest({ country_id: 4, units: text }), 'units')).toBe('Please enter a whole number of units (at least 1)');
    }
    expect(messageFor(checkPoliticsInvest({ country_id: 4, units: '2000000' }), 'units')).toBe('Amount must be at most $1,000,000,000.00');
  });

  it('build: both type and city', () => {
    expect(checkBuild({ type: 'farm', city_id: 7 })).toMatchObject({ ok: true, request: { type: 'farm', city_id: 7 } });
    expect(checkBuild({ type: null, city_id: 7 })).toMatchObject({
      ok: false,
      error: { title: 'Missing selection', message: 'Please select both building type and city' },
    });
    expect(checkBuild({ type: 'farm', city_id: undefined })).toMatchObject({
      ok: false,
      error: { title: 'Missing selection', message: 'Please select both building type and city' },
    });
  });

  it('hire 1-10 whole employees: 0, -3, 11 or 2.5 are refused, never turned into 1 or 10', () => {
    expect(checkHire({ id: 1, count: '10' })).toMatchObject({ ok: true, request: { id: 1, count: 10 } });
    for (const text of ['0', '-3', '11', '2.5', '', 'two'])
      expect(messageFor(checkHire({ id: 1, count: text }), 'count')).toBe('Please enter a number between 1 and 10');
  });

  it('equipment 2-5 above the current level; production rate 10-200 as typed', () => {
    expect(checkEquipmentUpgrade({ id: 1, target_level: '3' }, 2)).toMatchObject({ ok: true, request: { id: 1, target_level: 3 } });
    for (const level of [null, 6, '1'])
      expect(messageFor(checkEquipmentUpgrade({ id: 1, target_level: level }, 1), 'target_level')).toBe('Please select a valid level (2-5)');
    // The server's schema takes level 1-5; at or below the current level only its operation refuses (422): checked here too.
    expect(messageFor(checkEquipmentUpgrade({ id: 1, target_level: 3 }, 3), 'target_level')).toBe('Please select a valid level (2-5)');
    expect(checkProductionRate({ id: 1, new_rate: '150' })).toMatchObject({ ok: true, request: { id: 1, new_rate: 150 } });
    // '50' then '100' typed reads '50100': refused, not snapped to 100 or 200.
    for (const text of ['9', '201', '55.5', '50100', ''])
      expect(messageFor(checkProductionRate({ id: 1, new_rate: text }), 'new_rate')).toBe('Production rate must be between 10 and 200');
  });

  it('purchases and add to store: a whole quantity, a price in whole cents (0, -3 or 0.001 never become $0.01)', () => {
    expect(checkBuildingPurchase({ id: 2, product_id: 5, quantity: '10' })).toMatchObject({ ok: true, request: { id: 2, product_id: 5, quantity: 10 } });
    for (const text of ['0', '-1', '1.5', ''])
      expect(messageFor(checkBuildingPurchase({ id: 2, product_id: 5, quantity: text }), 'quantity')).toBe('Please enter a valid quantity');
    expect(checkTransferToStore({ id: 2, product_id: 5, quantity: '4', retail_price: '6.90' })).toMatchObject({
      ok: true,
      request: { id: 2, product_id: 5, quantity: 4, retail_price: 6.9 },
    });
    const both = checkTransferToStore({ id: 2, product_id: 5, quantity: '0', retail_price: '0' });
    expect(both).toMatchObject({ ok: false, error: { title: 'Invalid quantity', message: 'Please enter a valid quantity' } });
    expect(both.errors).toEqual({ quantity: 'Please enter a valid quantity', retail_price: 'Please enter a valid price' });
    for (const price of ['0', '-3', '', '0.001', '4.355', 'abc']) {
      expect(messageFor(checkTransferToStore({ id: 2, product_id: 5, quantity: '4', retail_price: price }), 'retail_price')).toBe('Please enter a valid price');
    }
  });

  it('store price edit takes the typed text; recipe and category need a choice', () => {
    expect(checkStorePrice({ id: 2, product_id: 5, retail_price: '4.50' })).toMatchObject({ ok: true, request: { id: 2, product_id: 5, retail_price: 4.5 } });
    for (const text of ['', 'abc', '0', '-3', '4.505'])
      expect(messageFor(checkStorePrice({ id: 2, product_id: 5, retail_price: text }), 'retail_price')).toBe('Please enter a valid price');
    expect(checkRecipeSelection({ id: 2, recipe_id: '' }).ok).toBe(false);
    expect(checkRecipeSelection({ id: 2, recipe_id: '12' })).toMatchObject({ ok: true, request: { id: 2, recipe_id: 12 } });
    expect(checkCategorySelection({ id: 2, category: null }).ok).toBe(false);
    expect(checkCategorySelection({ id: 2, category: 'Not a category' }).ok).toBe(false);
    expect(checkCategorySelection({ id: 2, category: 'Food Products' })).toMatchObject({ ok: true, request: { id: 2, category: 'Food Products' } });
  });

  it('warehouse moves: a store, a whole quantity, no more than is held', () => {
    expect(checkWarehouseMove({ building_id: 3, product_id: 5, quantity: '7', direction: 'to_back_room' })).toMatchObject({
      ok: true,
      request: { building_id: 3, product_id: 5, quantity: 7, direction: 'to_back_room' },
    });
    expect(messageFor(checkWarehouseMove({ building_id: undefined, product_id: 5, quantity: '7', direction: 'to_back_room' }), 'building_id')).toBe(
      'Please select a store',
    );
    expect(messageFor(checkWarehouseMove({ building_id: 3, product_id: 5, quantity: '7.5', direction: 'to_warehouse' }), 'quantity')).toBe(
      'Please enter a valid quantity',
    );
    expect(moreThanHeld(8, 7)).toBe('Please enter a valid quantity: you have 7');
    expect(moreThanHeld(7, 7)).toBeUndefined();
    expect(moreThanHeld(null, 7)).toBeUndefined();
  });
});
