/**
 * A number the player types: the field keeps exactly the text typed (no clamping, rounding,
 * reformatting or dropped characters) and shows the form's message for it under the field once the
 * player has changed it (or left it). The form decides what is valid (lib/formChecks.ts).
 */
import { useRef, useState } from 'react';
import { TextInput, type TextInputProps } from '@mantine/core';
import type { NumberKind } from '../lib/formChecks';

/** A field's text, and whether the player has touched it (messages show from then on). */
export function useFieldText(initial: string | number = '') {
  const [text, setText] = useState(String(initial));
  const [touched, setTouched] = useState(false);
  // Whether the player has typed, as of now (not as of the last render): a suggestion that arrives
  // between a keystroke and its render must not overwrite what was typed.
  const typed = useRef(false);
  // Whether the player is in the field: a suggestion must not change the text under the cursor (one
  // that landed between selecting the text and typing over it kept the suggestion and added the
  // keystroke: '75.97' + '0').
  const focused = useRef(false);
  return {
    text,
    touched,
    set: (next: string) => {
      typed.current = true;
      setText(next);
      setTouched(true);
    },
    /** Back to a value without showing messages (after a successful submit). */
    reset: (next: string | number) => {
      typed.current = false;
      setText(String(next));
      setTouched(false);
    },
    /** A value the server suggests: it replaces the text only while the player has typed nothing and is not in the field. */
    suggest: (next: string | number) => {
      if (!typed.current && !focused.current) setText(String(next));
    },
    /** The player entered (true) or left (false) the field. */
    focus: (inField: boolean) => {
      focused.current = inField;
    },
    touch: () => {
      typed.current = true;
      setTouched(true);
    },
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
      onFocus={(event) => {
        field.focus(true);
        props.onFocus?.(event);
      }}
      onBlur={(event) => {
        field.focus(false);
        field.touch();
        props.onBlur?.(event);
      }}
      error={field.touched ? error : undefined}
    />
  );
}
