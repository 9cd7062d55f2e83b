/**
 * 'No company found' (spec section 8): a player whose company went bankrupt (or who has none)
 * founds a new one here (POST /api/company, tRPC company.found): after a bankruptcy with what the
 * liquidation left, otherwise with the world's starting cash (docs/economy.md, "Founding again after bankruptcy").
 */
import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { INITIAL_CAPITAL, companyNameSchema } from '@marketcraft/shared';
import { formatWholeDollars } from '../../lib/format';
import { notifyError, notifyFailure, notifySuccess } from '../../lib/notify';
import { trpc } from '../../trpc';

export function FoundCompanyCard() {
  const [name, setName] = useState('');
  const found = trpc.company.found.useMutation({
    onSuccess: (company) => {
      notifySuccess('Company founded!', `${company.name} starts with ${formatWholeDollars(company.cash)}.`);
      setName('');
    },
    onError: (error) => notifyFailure('Error', error, 'Could not found the company. Please try again.'),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return found.mutate({});
    const parsed = companyNameSchema.safeParse(trimmed);
    if (!parsed.success) return notifyError('Validation Error', parsed.error.issues[0]?.message ?? 'Company name cannot be empty');
    found.mutate({ name: parsed.data });
  };

  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} title="No company found" data-testid="no-company">
      <Stack gap="sm">
        <Text size="sm">
          You have no active company (a company that stays in debt for several turns goes bankrupt). Found a new one to play again. After a bankruptcy in this
          world it starts with what the liquidation left your old company, often nothing: there is no second starting grant. Otherwise it starts with the
          world's starting cash ({formatWholeDollars(INITIAL_CAPITAL)} in the public world).
        </Text>
        <form onSubmit={onSubmit}>
          <Group align="flex-end" gap="xs" wrap="wrap">
            <TextInput
              label="Company name"
              description="Optional: leave empty to name it after your email"
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              disabled={found.isPending}
              style={{ flex: '1 1 220px' }}
            />
            <Button type="submit" color="red" disabled={found.isPending}>
              {found.isPending ? 'Founding...' : 'Found Company'}
            </Button>
          </Group>
        </form>
      </Stack>
    </Alert>
  );
}
