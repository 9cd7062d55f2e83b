/** 'Purchase Product' (trade hall) and raw-material purchase (factory): a quantity at the city's price. */
import { useState } from 'react';
import { Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { checkBuildingPurchase } from '../../lib/formChecks';
import { formatMoney } from '../../lib/format';
import { notifyError } from '../../lib/notify';

export interface PurchaseTarget {
  productId: number;
  productName: string;
  price: number;
  quantity: number;
}

/** Checks the request with the API's own schema ('Please enter a valid quantity') and confirms it. */
export function PurchaseDialog({
  buildingId,
  target,
  title,
  cash,
  pending,
  onClose,
  onConfirm,
}: {
  buildingId: number;
  target: PurchaseTarget;
  title: string;
  cash: number;
  pending: boolean;
  onClose: () => void;
  onConfirm: (request: { id: number; product_id: number; quantity: number }) => void;
}) {
  const [quantity, setQuantity] = useState<number | string>(target.quantity);
  const value = typeof quantity === 'number' ? quantity : Number(quantity);
  const total = Number.isFinite(value) ? value * target.price : 0;
  const confirm = () => {
    const checked = checkBuildingPurchase({ id: buildingId, product_id: target.productId, quantity });
    if (!checked.ok) return notifyError(checked.error.title, checked.error.message);
    onConfirm(checked.request);
  };
  return (
    <Modal opened onClose={onClose} title={title} centered>
      <Stack gap="sm">
        <Text fw={600}>{target.productName}</Text>
        <Text size="sm" c="dimmed">
          {formatMoney(target.price)} per unit at this city's market price
        </Text>
        <NumberInput label="Quantity" min={1} allowDecimal={false} value={quantity} onChange={setQuantity} data-autofocus />
        <Text size="sm" c={total > cash ? 'red' : undefined}>
          Total: <b>{formatMoney(total)}</b>
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={confirm} disabled={pending || total > cash}>
            {pending ? 'Purchasing...' : 'Purchase'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
