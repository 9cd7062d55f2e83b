/** Where a holding is (GET /api/warehouse), in words: the Warehouse page and the dashboard say it alike. */
import type { RouterOutputs } from '../trpc';

export type Holding = RouterOutputs['warehouse']['holdings']['items'][number];

/** "Warehouse", "Back room, Store in Hesperia City" or "Shelf, Store in Hesperia City". */
export function whereText(holding: Pick<Holding, 'location' | 'store'>): string {
  if (holding.location === 'warehouse') return 'Warehouse';
  const store = holding.store ? `${holding.store.building_name} in ${holding.store.city_name}` : 'a store';
  return holding.location === 'back_room' ? `Back room, ${store}` : `Shelf, ${store}`;
}
