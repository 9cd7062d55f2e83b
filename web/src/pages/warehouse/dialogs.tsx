/** The Warehouse page's dialogs: sell goods on the market, move them to a store's back room or back. */
import { useState } from 'react';
import { Select, Text } from '@mantine/core';
import { DialogForm, FormDialog } from '../../components/FormDialog';
import { NumberField, useFieldText } from '../../components/NumberField';
import { OrderSummary } from '../../components/OrderSummary';
import { useMarketQuote } from '../../hooks/useOrderQuote';
import { checkContractOffer, checkMarketTrade, checkWarehouseMove, moreThanHeld } from '../../lib/formChecks';
import { formatMoney } from '../../lib/format';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { trpc, type RouterOutputs } from '../../trpc';

type Holding = RouterOutputs['warehouse']['holdings']['items'][number];
type Building = RouterOutputs['buildings']['list'][number];

function SellForm({ holding, onClose }: { holding: Holding; onClose: () => void }) {
  const quantity = useFieldText(holding.quantity);
  const trade = trpc.market.trade.useMutation({
    onSuccess: (result) => {
      notifySuccess('Sold!', `${result.quantity.toLocaleString('en-US')} units of ${result.product_name}`);
      onClose();
    },
    onError: (error) => notifyFailure('Trade failed', error, 'Insufficient funds or inventory'),
  });
  const checked = checkMarketTrade({ product_id: holding.product_id, quantity: quantity.text, action: 'sell' });
  const units = checked.ok ? checked.request.quantity : null;
  const tooMany = moreThanHeld(units, holding.quantity);
  const quote = useMarketQuote(holding.product_id, tooMany ? null : units, 'sell');
  return (
    <DialogForm
      onClose={onClose}
      submitLabel="Sell"
      pendingLabel="Selling..."
      pending={trade.isPending}
      canSubmit={checked.ok && !tooMany}
      onSubmit={() => checked.ok && trade.mutate(checked.request)}
      summary={<OrderSummary quote={quote} verb="You receive" testId="sell-total" />}
    >
      <Text fw={600}>{holding.product_name}</Text>
      <Text size="sm" c="dimmed">
        {holding.quantity.toLocaleString('en-US')} in your warehouse. The market pays {formatMoney(holding.unit_value)} for one unit now; a large sale lowers
        the price as it goes.
      </Text>
      <NumberField label="Quantity" field={quantity} error={checked.errors.quantity ?? tooMany} data-autofocus />
    </DialogForm>
  );
}

export function SellGoodsDialog({ holding, onClose }: { holding: Holding | null; onClose: () => void }) {
  return (
    <FormDialog opened={holding !== null} onClose={onClose} title="Sell on the Market">
      {holding && <SellForm holding={holding} onClose={onClose} />}
    </FormDialog>
  );
}

export interface MoveTarget {
  holding: Holding;
  direction: 'to_back_room' | 'to_warehouse';
}

function MoveForm({ target, stores, onClose }: { target: MoveTarget; stores: Building[]; onClose: () => void }) {
  const { holding, direction } = target;
  const [storeId, setStoreId] = useState<string | null>(
    direction === 'to_warehouse' ? String(holding.store?.building_id ?? '') : stores.length === 1 ? String(stores[0]!.id) : null,
  );
  const quantity = useFieldText(holding.quantity);
  const move = trpc.warehouse.move.useMutation({
    onSuccess: (result) => {
      notifySuccess(
        'Goods moved!',
        `${result.quantity.toLocaleString('en-US')} ${result.product_name} ${result.direction === 'to_back_room' ? 'moved to the back room' : 'moved to the warehouse'}.`,
      );
      onClose();
    },
    onError: (error) => notifyFailure('Error', error, 'Could not move the goods'),
  });
  const checked = checkWarehouseMove({
    building_id: storeId ? Number(storeId) : undefined,
    product_id: holding.product_id,
    quantity: quantity.text,
    direction,
  });
  const tooMany = moreThanHeld(checked.ok ? checked.request.quantity : null, holding.quantity);
  return (
    <DialogForm
      onClose={onClose}
      submitLabel="Move"
      pendingLabel="Moving..."
      pending={move.isPending}
      canSubmit={checked.ok && !tooMany}
      onSubmit={() => checked.ok && move.mutate(checked.request)}
    >
      <Text fw={600}>{holding.product_name}</Text>
      {direction === 'to_back_room' ? (
        <Select
          label="Store"
          placeholder="Choose a store"
          data={stores.map((store) => ({ value: String(store.id), label: `${store.name} in ${store.city_name}` }))}
          value={storeId}
          onChange={setStoreId}
          error={checked.errors.building_id && storeId !== null ? checked.errors.building_id : undefined}
          comboboxProps={{ withinPortal: true }}
          data-autofocus
        />
      ) : (
        <Text size="sm">
          From the back room of your {holding.store?.building_name} in {holding.store?.city_name} to the company warehouse.
        </Text>
      )}
      <NumberField
        label="Quantity"
        description={`${holding.quantity.toLocaleString('en-US')} ${direction === 'to_back_room' ? 'in your warehouse' : 'in this back room'}`}
        field={quantity}
        error={checked.errors.quantity ?? tooMany}
        data-autofocus={direction === 'to_warehouse' ? true : undefined}
      />
    </DialogForm>
  );
}

export function MoveDialog({ target, stores, onClose }: { target: MoveTarget | null; stores: Building[]; onClose: () => void }) {
  return (
    <FormDialog
      opened={target !== null}
      onClose={onClose}
      title={target?.direction === 'to_warehouse' ? 'Move to the Warehouse' : "Move to a Store's Back Room"}
    >
      {target && <MoveForm target={target} stores={stores} onClose={onClose} />}
    </FormDialog>
  );
}

/**
 * Offer goods to another company (POST /api/contracts, docs/exchange.md "Contracts"): the goods
 * leave the warehouse at once and are held until the buyer accepts or declines, you cancel, or the
 * offer expires at the turn of its last week.
 */
function OfferForm({ holding, week, onClose }: { holding: Holding; week: number; onClose: () => void }) {
  const [search, setSearch] = useState('');
  const [buyerId, setBuyerId] = useState<string | null>(null);
  const [weeks, setWeeks] = useState('1');
  const quantity = useFieldText(holding.quantity);
  const price = useFieldText('');
  const me = trpc.company.get.useQuery();
  const companies = trpc.company.list.useQuery({ limit: 50, search: search.trim() || undefined });
  const offer = trpc.contracts.offer.useMutation({
    onSuccess: (contract) => {
      notifySuccess(
        'Offer sent',
        `${contract.quantity.toLocaleString('en-US')} ${contract.product_name} to ${contract.buyer_name} for ${formatMoney(contract.total)}`,
      );
      onClose();
    },
    onError: (error) => notifyFailure('Offer refused', error, 'The offer could not be made'),
  });
  const checked = checkContractOffer({
    buyer_company_id: buyerId ? Number(buyerId) : undefined,
    product_id: holding.product_id,
    quantity: quantity.text,
    unit_price: price.text,
    expires_week: week + Number(weeks) - 1,
  });
  const tooMany = moreThanHeld(checked.ok ? checked.request.quantity : null, holding.quantity);
  const choices = (companies.data ?? []).filter((company) => company.id !== me.data?.id).map((company) => ({ value: String(company.id), label: company.name }));
  return (
    <DialogForm
      onClose={onClose}
      submitLabel="Send offer"
      pendingLabel="Sending..."
      pending={offer.isPending}
      canSubmit={checked.ok && !tooMany}
      onSubmit={() => checked.ok && offer.mutate(checked.request)}
      summary={
        checked.ok ? (
          <Text size="sm" data-testid="offer-total">
            They pay {formatMoney(checked.request.quantity * checked.request.unit_price)} if they accept. Until then the goods are held out of your warehouse.
          </Text>
        ) : undefined
      }
    >
      <Text fw={600}>{holding.product_name}</Text>
      <Select
        label="To company"
        placeholder="Type part of a name"
        searchable
        searchValue={search}
        onSearchChange={setSearch}
        data={choices}
        value={buyerId}
        onChange={setBuyerId}
        nothingFoundMessage="No company found"
        comboboxProps={{ withinPortal: true }}
        data-autofocus
      />
      <NumberField
        label="Quantity"
        description={`${holding.quantity.toLocaleString('en-US')} in your warehouse`}
        field={quantity}
        error={checked.errors.quantity ?? tooMany}
      />
      <NumberField label="Price per unit" field={price} error={checked.errors.unit_price} />
      <Select
        label="Open for"
        data={['1', '2', '3', '4', '5', '6', '7', '8'].map((value) => ({ value, label: value === '1' ? 'This week' : `${value} weeks` }))}
        value={weeks}
        onChange={(value) => setWeeks(value ?? '1')}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
      />
    </DialogForm>
  );
}

export function OfferDialog({ holding, week, onClose }: { holding: Holding | null; week: number; onClose: () => void }) {
  return (
    <FormDialog opened={holding !== null} onClose={onClose} title="Offer to a Company">
      {holding && <OfferForm holding={holding} week={week} onClose={onClose} />}
    </FormDialog>
  );
}
