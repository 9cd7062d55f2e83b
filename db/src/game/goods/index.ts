/** Goods: the warehouse's and back rooms' stock, the market maker's orders and prices, their history, buying for a building. */
export * from './stock.ts';
export * from './warehouse.ts';
export * from './market.ts';
export * from './prices.ts';
export * from './marketHistory.ts';
export * from './buildingPurchase.ts';
