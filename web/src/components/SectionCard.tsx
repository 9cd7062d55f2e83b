import type { ComponentType, ReactNode } from 'react';
import { Card, Group, Title, type MantineSpacing, type StyleProp } from '@mantine/core';

/**
 * A bordered card that opens with its heading: an optional decorative icon and a level-2 title
 * (the admin panel's, the Worlds page's and the manage page's sections). `headerMb` is the space
 * under the heading; `mt`/`mb` place the card.
 */
export function SectionCard({
  title,
  icon: Icon,
  headerMb = 'md',
  mt,
  mb,
  children,
  'data-testid': testId,
}: {
  title: ReactNode;
  icon?: ComponentType<{ size?: number; 'aria-hidden'?: boolean }>;
  headerMb?: StyleProp<MantineSpacing>;
  mt?: StyleProp<MantineSpacing>;
  mb?: StyleProp<MantineSpacing>;
  children: ReactNode;
  'data-testid'?: string;
}) {
  return (
    <Card withBorder padding="lg" mt={mt} mb={mb} data-testid={testId}>
      <Group gap="sm" mb={headerMb}>
        {Icon && <Icon size={22} aria-hidden />}
        <Title order={2} fz="lg">
          {title}
        </Title>
      </Group>
      {children}
    </Card>
  );
}
