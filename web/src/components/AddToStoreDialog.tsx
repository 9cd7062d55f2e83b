/**
 * 'Add Product to Store' (spec sections 2 and 5): units of a product onto a store's shelf at a
 * retail price, from the store's back room first, then from the company warehouse (the server's
 * rule, POST /buildings/{id}/inventory/transfer-to-store). Used by the Trade Hall and the Warehouse
 * page (which also picks the store).
 *
 * The quantity is a whole number up to what the store can reach (its back room plus the
 * warehouse); the price is in whole cents. Both are checked as the player types, with the spec's
 * messages ('Please enter a valid quantity', 'Please enter a valid price').
 *
 * The price starts at the one the store's forecast finds best (GET /buildings/{id}/shelf-price: the
 * most margin over the average cost next turn, given the other stores' shelves in the city), and
 * says so; the spec's suggestion (average cost x 1.5, '50% markup') stays beside it as a reference:
 * in most cities it is well above what shoppers expect, so a shelf at it sold little. Until a store
 * is chosen (or its answer arrives) the field holds the markup price.
 */
import { useEffect, useState } from 'react';
import { Select, Text } from '@mantine/core';
import { MAX_STORE_PRODUCTS, SUGGESTED_RETAIL_MARKUP } from '@marketcraft/shared';
import { checkTransferToStore } from '../lib/formChecks';
import { formatMoney } from '../lib/format';
import { notifyFailure, notifySuccess } from '../lib/notify';
import { trpc } from '../trpc';
import { DialogForm, FormDialog } from './FormDialog';
import { NumberField, useFieldText } from './NumberField';

export interface ShelfCandidate {
  productId: number;
  productName: string;
  /** Average cost per unit (the suggested price is 1.5 x this). */
  averageCost: number;
}

export interface StoreChoice {
  id: number;
  label: string;
  /** The store's city: its shoppers' reference price is the hint beside the retail price. */
  cityId: number;
  cityName: string;
  /** Units of the product this store can put on its shelf: its back room plus the warehouse. */
  available: number;
}

/** The suggested retail price: average cost x 1.5, in whole cents. */
function suggestedRetailPrice(averageCost: number): string {
  return (Math.round(averageCost * SUGGESTED_RETAIL_MARKUP * 100) / 100).toFixed(2);
}

function AddToStoreForm({ item, stores, onClose }: { item: ShelfCandidate; stores: StoreChoice[]; onClose: () => void }) {
  const [storeId, setStoreId] = useState<string | null>(stores.length === 1 ? String(stores[0]!.id) : null);
  const store = stores.find((candidate) => String(candidate.id) === storeId) ?? null;
  const quantity = useFieldText(store?.available ?? '');
  const price = useFieldText(suggestedRetailPrice(item.averageCost));
  const advice = trpc.buildings.shelfPrice.useQuery({ id: store?.id ?? 0, product_id: item.productId }, { enabled: store !== null });
  const best = advice.data;
  // The best price replaces the markup once it is known, unless the player has typed a price.
  useEffect(() => {
    if (best) price.suggest(best.best_price.toFixed(2));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when a new answer arrives
  }, [best]);
  // What shoppers in the store's city expect to pay (the server's reference price): without it a new
  // player sets a price blind, and above it sales fall fast (docs/economy.md, "Store sales").
  const cityMarket = trpc.catalog.cityMarketData.useQuery({ id: store?.cityId ?? 0 }, { enabled: store !== null });
  const reference = cityMarket.data?.find((product) => product.product_id === item.productId);
  const transfer = trpc.buildings.transferToStore.useMutation({
    onSuccess: () => {
      notifySuccess('Product added to store!');
      onClose();
    },
    onError: (error) => notifyFailure('Error', error, 'Could not add the product to the store'),
  });
  const checked = checkTransferToStore({ id: store?.id ?? 0, product_id: item.productId, quantity: quantity.text, retail_price: price.text });
  const tooMany = checked.ok && store !== null && checked.request.quantity > store.available;
  const quantityError =
    checked.errors.quantity ?? (tooMany ? `Please enter a valid quantity: ${store.available.toLocaleString('en-US')} available` : undefined);
  // Allowed (a player may clear stock at a loss), but never by accident: a new player typed $3.50 for
  // bread that cost $49.30 and nothing said each sale lost money.
  const lossPerUnitCents = checked.ok ? Math.round(item.averageCost * 100) - Math.round(checked.request.retail_price * 100) : 0;
  return (
    <DialogForm
      onClose={onClose}
      submitLabel="Add to Store"
      pendingLabel="Adding..."
      pending={transfer.isPending}
      canSubmit={checked.ok && store !== null && !tooMany}
      onSubmit={() => checked.ok && transfer.mutate(checked.request)}
    >
      <Text fw={600}>{item.productName}</Text>
      <Text size="sm" c="dimmed">
        A store sells at most {MAX_STORE_PRODUCTS} products; more of a product already on its shelf is always welcome.
      </Text>
      {stores.length > 1 || stores.length === 0 ? (
        <Select
          label="Store"
          placeholder={stores.length === 0 ? 'You have no store yet' : 'Choose a store'}
          data={stores.map((candidate) => ({ value: String(candidate.id), label: candidate.label }))}
          value={storeId}
          onChange={(value) => {
            setStoreId(value);
            const next = stores.find((candidate) => String(candidate.id) === value);
            if (next) quantity.suggest(next.available);
          }}
          disabled={stores.length === 0}
          comboboxProps={{ withinPortal: true }}
          data-autofocus
        />
      ) : null}
      <NumberField
        label="Quantity"
        description={store ? `${store.available.toLocaleString('en-US')} available (the store's back room first, then your warehouse)` : undefined}
        field={quantity}
        error={quantityError}
        data-autofocus={stores.length === 1 ? true : undefined}
      />
      <NumberField
        label="Retail price"
        kind="money"
        leftSection="$"
        description={
          <>
            {best ? (
              <span data-testid="shelf-best-price">
                Suggested {formatMoney(best.best_price)}: the price this store&apos;s forecast finds most profitable next turn (
                {best.units.toLocaleString('en-US')} {best.units === 1 ? 'unit' : 'units'} sold, {formatMoney(best.margin)} over their cost)
                <br />
              </span>
            ) : null}
            <span data-testid="shelf-markup-price">
              {best ? 'For reference, the ' : 'Suggested: the '}50% markup on {formatMoney(best?.average_cost ?? item.averageCost)} average cost is{' '}
              {formatMoney(best?.markup_price ?? Number(suggestedRetailPrice(item.averageCost)))}
            </span>
            {store && reference && (
              <span data-testid="shelf-reference-price">
                <br />
                Shoppers in {store.cityName} expect {formatMoney(reference.market_price)} (demand {reference.demand_level}/100): the further above it, the fewer
                sell
              </span>
            )}
          </>
        }
        field={price}
        error={checked.errors.retail_price}
      />
      {lossPerUnitCents > 0 && (
        <Text size="sm" c="orange" role="status" data-testid="shelf-below-cost">
          Below your average cost of {formatMoney(item.averageCost)}: each unit sold loses {formatMoney(lossPerUnitCents / 100)}.
        </Text>
      )}
    </DialogForm>
  );
}

/** Mounted always; `item` opens it. */
export function AddToStoreDialog({ item, stores, onClose }: { item: ShelfCandidate | null; stores: StoreChoice[]; onClose: () => void }) {
  return (
    <FormDialog opened={item !== null} onClose={onClose} title="Add Product to Store">
      {item && <AddToStoreForm item={item} stores={stores} onClose={onClose} />}
    </FormDialog>
  );
}
