/** A personal access token's scope (read, trade, manage) as a coloured badge: profile, admin, Learning Base. */
import { Badge, type BadgeProps } from '@mantine/core';
import type { ApiTokenScope } from '@marketcraft/shared';

const SCOPE_COLORS: Record<ApiTokenScope, string> = { read: 'green', trade: 'blue', manage: 'grape' };

export function ScopeBadge({ scope, ...props }: { scope: ApiTokenScope } & Omit<BadgeProps, 'color' | 'children'>) {
  return (
    <Badge variant="light" color={SCOPE_COLORS[scope]} miw="max-content" {...props}>
      {scope}
    </Badge>
  );
}
