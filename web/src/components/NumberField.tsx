/**
 * A number the player types: the field keeps exactly the text typed (no clamping, rounding,
 * reformatting or dropped characters) and shows the form's message for it under the field once the
 * player has changed it (or left it). The form decides what is valid (lib/formChecks.ts).
 */
import { useState } from 'react';
import { TextInput, type TextInputProps } from '@mantine/core';
import type { NumberKind } from '../lib/formChecks';

/** A field's text, and whether the player has touched it (messages show from then on). */
export function useFieldText(initial: string | number = '') {
  const [text, setText] = useState(String(initial));
  const [touched, setTouched] = useState(false);
  return {
    text,
    touched,
    set: (next: string) => {
      setText(next);
      setTouched(true);
    },
    /** Back to a value without showing messages (after a successful submit). */
    reset: (next: string | number) => {
      setText(String(next));
      setTouched(false);
    },
    touch: () => setTouched(true),
  };
}

export type FieldText = ReturnType<typeof useFieldText>;

export function NumberField({
  field,
  error,
  kind = 'whole',
  ...props
}: Omit<TextInputProps, 'value' | 'onChange' | 'error'> & {
  field: FieldText;
  /** The form's message for this field (shown once the field is touched). */
  error: string | undefined;
  kind?: NumberKind;
}) {
  return (
    <TextInput
      inputMode={kind === 'whole' ? 'numeric' : 'decimal'}
      autoComplete="off"
      {...props}
      value={field.text}
      onChange={(event) => field.set(event.currentTarget.value)}
      onBlur={(event) => {
        field.touch();
        props.onBlur?.(event);
      }}
      error={field.touched ? error : undefined}
    />
  );
}
