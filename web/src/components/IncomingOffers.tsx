/**
 * Contract offers made to your company (GET /api/contracts?direction=incoming&status=open), with
 * Accept (you pay, the goods come to your warehouse) and Decline (they go back to the seller):
 * docs/exchange.md, "Contracts". Shown on the dashboard and the warehouse; nothing when there is none.
 */
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { formatMoney } from '../lib/format';
import { notifyFailure, notifySuccess } from '../lib/notify';
import { trpc } from '../trpc';

export function IncomingOffers() {
  const offers = trpc.contracts.list.useQuery({ direction: 'incoming', status: 'open' });
  const accept = trpc.contracts.accept.useMutation({
    onSuccess: (contract) =>
      notifySuccess('Offer accepted', `${contract.quantity.toLocaleString('en-US')} ${contract.product_name} for ${formatMoney(contract.total)}`),
    onError: (error) => notifyFailure('Could not accept', error, 'The offer could not be accepted'),
  });
  const decline = trpc.contracts.decline.useMutation({
    onSuccess: (contract) => notifySuccess('Offer declined', `${contract.seller_name} gets its ${contract.product_name} back.`),
    onError: (error) => notifyFailure('Could not decline', error, 'The offer could not be declined'),
  });
  if (!offers.data || offers.data.length === 0) return null;
  const busy = accept.isPending || decline.isPending;
  return (
    <Card withBorder padding="lg" data-testid="incoming-offers">
      <Title order={2} fz="md" mb="xs">
        Offers to Your Company
      </Title>
      <Stack gap="xs">
        {offers.data.map((offer) => (
          <Group key={offer.id} justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm">
              <b>{offer.seller_name}</b> offers {offer.quantity.toLocaleString('en-US')} {offer.product_name} at {formatMoney(offer.unit_price)} each:{' '}
              <b>{formatMoney(offer.total)}</b>
              <Text span size="xs" c="dimmed">
                {' '}
                until week {offer.expires_week}
              </Text>
            </Text>
            <Group gap="xs">
              <Button
                size="xs"
                onClick={() => accept.mutate({ id: offer.id })}
                disabled={busy}
                aria-label={`Accept offer ${offer.id} from ${offer.seller_name}`}
              >
                Accept
              </Button>
              <Button
                size="xs"
                variant="light"
                color="gray"
                onClick={() => decline.mutate({ id: offer.id })}
                disabled={busy}
                aria-label={`Decline offer ${offer.id} from ${offer.seller_name}`}
              >
                Decline
              </Button>
            </Group>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
