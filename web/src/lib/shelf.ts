/**
 * What a store's shelf has to sell (GET /api/stores/{id}/products): a store sells only the goods on
 * its shelf, so a shelf with nothing on sale sells nothing next turn. A player whose bread sold out
 * in one week read "No store sales" for weeks after, with no word on the store or the dashboard.
 */
interface ShelfLine {
  product_name: string;
  quantity: number;
  is_active: boolean;
}

export interface ShelfState {
  /** Nothing on sale: no active product with stock. */
  empty: boolean;
  /** Active products whose stock is gone (sold out), by name. */
  soldOut: string[];
}

export function shelfState(lines: readonly ShelfLine[]): ShelfState {
  const active = lines.filter((line) => line.is_active);
  return {
    empty: !active.some((line) => line.quantity > 0),
    soldOut: active.filter((line) => line.quantity <= 0).map((line) => line.product_name),
  };
}
