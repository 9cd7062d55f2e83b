/**
 * "Why this number" (issue 10, point 6): a small button beside a figure the API explains (a Figure:
 * its value, formula and terms, from the shared rules) opening a popover with the formula and each
 * term's value. The web only formats what the API sent; it never recomputes a figure.
 */
import { ActionIcon, Popover, Stack, Table, Text } from '@mantine/core';
import { IconHelpCircle } from '@tabler/icons-react';
import type { Figure, FigureUnit } from '@marketcraft/shared';
import { formatMoney } from '../lib/format';

export function formatFigureValue(value: number, unit: FigureUnit): string {
  switch (unit) {
    case 'dollars':
      return formatMoney(value);
    case 'percent':
      return `${value.toLocaleString('en-US', { maximumFractionDigits: 2 })}%`;
    case 'weeks':
      return `${value.toLocaleString('en-US', { maximumFractionDigits: 1 })} ${value === 1 ? 'week' : 'weeks'}`;
    case 'units':
      return `${value.toLocaleString('en-US', { maximumFractionDigits: 2 })} ${value === 1 ? 'unit' : 'units'}`;
    default:
      return value.toLocaleString('en-US', { maximumFractionDigits: 4 });
  }
}

export function WhyThisNumber({ figure, label }: { figure: Figure; label: string }) {
  return (
    <Popover width={320} position="bottom" withArrow shadow="md" trapFocus returnFocus>
      <Popover.Target>
        <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Why this number: ${label}`} data-testid="why-this-number">
          <IconHelpCircle size={16} aria-hidden />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap={6} role="group" aria-label={`Why this number: ${label}`}>
          <Text size="sm" fw={700}>
            {label}: {formatFigureValue(figure.value, figure.unit)}
          </Text>
          <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {label} = {figure.formula}
          </Text>
          <Table verticalSpacing={2} fz="xs">
            <Table.Tbody>
              {figure.terms.map((term) => (
                <Table.Tr key={term.name}>
                  <Table.Td>
                    {term.label}
                    <Text span size="xs" c="dimmed" ff="monospace">
                      {' '}
                      {term.name}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {formatFigureValue(term.value, term.unit)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
