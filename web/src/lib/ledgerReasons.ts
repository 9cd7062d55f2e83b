/** What a ledger reason means to a player (the week report's cash flows, the transactions page). */
const REASON_LABELS: Record<string, string> = {
  build: 'Construction',
  equipment: 'Equipment upgrades',
  hire: 'Hiring',
  sell_building: 'Buildings sold',
  market_buy: 'Market purchases',
  market_sell: 'Market sales',
  store_stock: 'Trade Hall purchases',
  raw_materials: 'Raw materials',
  store_sales: 'Store sales',
  production: 'Production',
  wages: 'Wages',
  operating_costs: 'Operating costs',
  subsidy: 'Subsidies',
  tax: 'Taxes',
  dividend: 'Dividends received',
  dividend_paid: 'Dividends paid',
  stock_buy: 'Shares bought',
  stock_sell: 'Shares sold',
  share_issue: 'Shares issued',
  share_buyback: 'Shares bought back',
  liquidation: 'Liquidation',
  restart_capital: 'Left after a bankruptcy',
  politics: 'Political influence',
  research: 'Research',
};

export function ledgerReasonLabel(reason: string): string {
  const label = REASON_LABELS[reason];
  if (label) return label;
  const words = reason.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
