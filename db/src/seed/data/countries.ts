/** The countries cities belong to, each with its profit tax rate in percent (spec section 3). */
export interface CountrySeed {
  name: string;
  /** Percent of positive profit taxed each turn; the base rate is the same at seed. */
  taxRate: number;
}

export const COUNTRIES = [
  { name: 'Aldoria', taxRate: 22 },
  { name: 'Brevania', taxRate: 18 },
  { name: 'Castellan Republic', taxRate: 28 },
  { name: 'Dunmore', taxRate: 15 },
  { name: 'Estavia', taxRate: 25 },
  { name: 'Fenwick Isles', taxRate: 12 },
  { name: 'Galvoran Union', taxRate: 32 },
  { name: 'Hesperia', taxRate: 20 },
  { name: 'Iskandar', taxRate: 17 },
] as const satisfies readonly CountrySeed[];

export type CountryName = (typeof COUNTRIES)[number]['name'];
