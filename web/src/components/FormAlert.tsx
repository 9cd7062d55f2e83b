/**
 * A form's message (a failed check, or the server's refusal) under its fields: announced to screen
 * readers as it appears, nothing when there is none.
 */
import { Text, type TextProps } from '@mantine/core';

export function FormAlert({ message, testId, ...props }: { message: string | null | undefined; testId?: string } & TextProps) {
  if (!message) return null;
  return (
    <Text c="red" size="sm" role="alert" data-testid={testId} {...props}>
      {message}
    </Text>
  );
}
