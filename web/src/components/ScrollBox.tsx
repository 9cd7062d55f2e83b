import type { ReactNode } from 'react';
import { Box } from '@mantine/core';

/**
 * A list that scrolls vertically past `maxHeight` and never widens past its container. The box is a
 * named region that takes focus, so the keyboard can scroll it.
 */
export function ScrollBox({ maxHeight, children, label }: { maxHeight: number | string; children: ReactNode; label: string }) {
  return (
    <Box mah={maxHeight} style={{ overflowY: 'auto', overflowX: 'hidden', overscrollBehavior: 'contain' }} role="region" aria-label={label} tabIndex={0}>
      {children}
    </Box>
  );
}
