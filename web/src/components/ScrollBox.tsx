import type { ReactNode } from 'react';
import { Box } from '@mantine/core';

/** A list that scrolls vertically past `maxHeight` and never widens past its container. */
export function ScrollBox({ maxHeight, children, label }: { maxHeight: number | string; children: ReactNode; label?: string }) {
  return (
    <Box mah={maxHeight} style={{ overflowY: 'auto', overflowX: 'hidden', overscrollBehavior: 'contain' }} aria-label={label} tabIndex={label ? 0 : undefined}>
      {children}
    </Box>
  );
}
