/**
 * The one dialog for a form.
 * - `FormDialog`: the titled modal, with a named close button. Its content is mounted only while it
 *   is open, so a form starts fresh each time. Keep the dialog itself mounted and drive `opened`:
 *   focus then goes back to the button that opened it when it closes (Mantine's focus return).
 * - `DialogForm`: the form inside it: the fields, an optional summary (what the order will cost),
 *   Cancel and the submit button (a row; stacked at full width on a phone), disabled while the form
 *   is invalid or the request is pending. Enter submits.
 */
import type { ReactNode } from 'react';
import { Button, Flex, Modal, Stack } from '@mantine/core';

export function FormDialog({
  opened,
  onClose,
  title,
  size,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  size?: string;
  children: ReactNode;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered size={size} closeButtonProps={{ 'aria-label': 'Close' }}>
      {opened && children}
    </Modal>
  );
}

export function DialogForm({
  onClose,
  submitLabel,
  pendingLabel,
  pending,
  canSubmit,
  onSubmit,
  children,
  summary,
  submitColor,
}: {
  onClose: () => void;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** False while the form is invalid (or the player cannot afford it). */
  canSubmit: boolean;
  onSubmit: () => void;
  children: ReactNode;
  /** Cost or total lines, shown above the buttons. */
  summary?: ReactNode;
  submitColor?: string;
}) {
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (canSubmit && !pending) onSubmit();
      }}
    >
      <Stack gap="sm">
        {children}
        {summary}
        {/* A row on wider screens; on a phone stacked at full width, the action on top (a long label
            such as 'Research for $15,000' wrapped the row into two ragged lines). */}
        <Flex direction={{ base: 'column-reverse', xs: 'row' }} justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" color={submitColor} disabled={!canSubmit || pending}>
            {pending ? pendingLabel : submitLabel}
          </Button>
        </Flex>
      </Stack>
    </form>
  );
}
