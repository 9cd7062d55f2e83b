import { TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { MAX_COMPANY_NAME_LENGTH } from '@marketcraft/shared';

/** The search box of a paged list of companies (the leaderboard, the stock exchange): part of a name, sent to the API as ?search. */
export function CompanySearchInput({ value, onChange, grow = false }: { value: string; onChange: (text: string) => void; grow?: boolean }) {
  return (
    <TextInput
      style={grow ? { flex: 1 } : undefined}
      placeholder="Search companies..."
      aria-label="Search companies"
      leftSection={<IconSearch size={16} aria-hidden />}
      maxLength={MAX_COMPANY_NAME_LENGTH}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}
