/** Light, dark or the system's colour scheme (a radio group), remembered in this browser (App.tsx). */
import { SegmentedControl, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';

const OPTIONS: Array<{ value: MantineColorScheme; label: string }> = [
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
  { value: 'auto', label: 'System' },
];

export function ColorSchemeToggle() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <SegmentedControl
      aria-label="Colour scheme"
      name="color-scheme"
      size="xs"
      fullWidth
      data={OPTIONS}
      value={colorScheme}
      onChange={(value) => setColorScheme(value as MantineColorScheme)}
    />
  );
}
