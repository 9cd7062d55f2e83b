/**
 * A shock's fields (what changes, its target, the change and its weeks): the manage page's "Apply a
 * shock" card and the fork's changes use the same ones, so a shock reads the same wherever it is made.
 */
import { NumberInput, Select, SimpleGrid, Stack } from '@mantine/core';
import { SHOCK_KINDS, type ShockKind } from '@marketcraft/shared';
import { trpc } from '../../trpc';

const SHOCK_LABELS: Record<ShockKind, string> = { tax_rate: "A country's tax rate", demand: "A product's consumer demand", price: "A product's market price" };

export interface ShockDraft {
  kind: ShockKind;
  target: string | null;
  percent: number | string;
  weeks: number | string;
}

export const NEW_SHOCK: ShockDraft = { kind: 'demand', target: null, percent: -30, weeks: 2 };

/** The draft as the shared schema reads it (shockSchema, forkWorldSchema's `shock`): the schema says what is wrong. */
export function shockInput(draft: ShockDraft) {
  return {
    kind: draft.kind,
    country_id: draft.kind === 'tax_rate' && draft.target ? Number(draft.target) : undefined,
    product_id: draft.kind !== 'tax_rate' && draft.target ? Number(draft.target) : undefined,
    percent: draft.percent === '' ? Number.NaN : Number(draft.percent),
    weeks: draft.weeks === '' ? Number.NaN : Number(draft.weeks),
  };
}

export function ShockFields({ draft, onChange, testId }: { draft: ShockDraft; onChange: (next: ShockDraft) => void; testId: string }) {
  const countries = trpc.politics.countries.useQuery();
  const goods = trpc.catalog.goods.useQuery();
  const options =
    draft.kind === 'tax_rate'
      ? (countries.data ?? []).map((country) => ({ value: String(country.id), label: `${country.name} (${country.tax_rate}%)` }))
      : (goods.data ?? []).map((good) => ({ value: String(good.id), label: good.name }));
  return (
    <Stack gap="sm">
      <Select
        label="What changes"
        data={SHOCK_KINDS.map((value) => ({ value, label: SHOCK_LABELS[value] }))}
        value={draft.kind}
        onChange={(value) => onChange({ ...draft, kind: (value as ShockKind) ?? 'demand', target: null })}
        allowDeselect={false}
        data-testid={`${testId}-kind`}
      />
      <Select
        label={draft.kind === 'tax_rate' ? 'Country' : 'Product'}
        data={options}
        value={draft.target}
        onChange={(target) => onChange({ ...draft, target })}
        searchable
        data-testid={`${testId}-target`}
      />
      <SimpleGrid cols={2}>
        <NumberInput
          clampBehavior="none"
          label="Change (%)"
          value={draft.percent}
          onChange={(percent) => onChange({ ...draft, percent })}
          min={-90}
          max={200}
          allowDecimal={false}
          data-testid={`${testId}-percent`}
        />
        <NumberInput
          clampBehavior="none"
          label="Weeks"
          value={draft.weeks}
          onChange={(weeks) => onChange({ ...draft, weeks })}
          min={1}
          max={52}
          allowDecimal={false}
          data-testid={`${testId}-weeks`}
        />
      </SimpleGrid>
    </Stack>
  );
}
