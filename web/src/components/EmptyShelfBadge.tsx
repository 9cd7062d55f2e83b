import { Badge } from '@mantine/core';
import { shelfState } from '../lib/shelf';
import { trpc } from '../trpc';

/** 'Shelf empty' on a store with nothing on sale (My Buildings, dashboard): it sells nothing next turn. */
export function EmptyShelfBadge({ storeId }: { storeId: number }) {
  const shelf = trpc.stores.products.useQuery({ id: storeId });
  if (!shelf.data || !shelfState(shelf.data).empty) return null;
  return (
    <Badge color="orange" variant="light" data-testid="empty-shelf-badge" style={{ flexShrink: 0 }}>
      Shelf empty
    </Badge>
  );
}
