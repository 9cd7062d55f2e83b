/**
 * The week a fork or sandbox starts at: whole weeks from 1 to the world's current one, kept exactly
 * as typed (no clamping: the form's schema answers a week out of range with its message).
 */
import { NumberInput } from '@mantine/core';

export function WeekField({
  value,
  onChange,
  currentWeek,
  testId,
}: {
  value: number | string;
  onChange: (value: number | string) => void;
  currentWeek: number;
  testId: string;
}) {
  return (
    <NumberInput
      clampBehavior="none"
      label="Start of week"
      value={value}
      onChange={onChange}
      min={1}
      max={currentWeek}
      allowDecimal={false}
      data-testid={testId}
    />
  );
}
