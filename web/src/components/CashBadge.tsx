import { Badge } from '@mantine/core';
import { IconCash } from '@tabler/icons-react';
import { useCompany } from '../hooks/useGameData';
import { formatWholeDollars } from '../lib/format';

/** "Cash: $500,000", for pages where spending happens. */
export function CashBadge({ label = 'Cash' }: { label?: string }) {
  const { company, isPending } = useCompany();
  return (
    <Badge size="lg" variant="light" color="green" leftSection={<IconCash size={14} aria-hidden />} tt="none">
      {label}: {isPending ? '...' : formatWholeDollars(company?.cash ?? 0)}
    </Badge>
  );
}
