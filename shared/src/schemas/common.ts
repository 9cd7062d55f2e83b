/**
 * Building blocks of the request schemas (spec section 5). A number field takes a JSON number only:
 * a JSON body (REST or tRPC) that sends "5" where a number goes is refused, naming the field (never
 * coerced: z.coerce would also turn `true` into 1, `[5]` into 5 and `null` or `""` into 0). Path
 * parameters and query strings are text by nature: the REST adapter (api/src/rest.ts) reads the text
 * of a number field there with numberFromText, then the same schema checks it. docs/api.md, "Numbers".
 */
import { z } from 'zod';
import { MAX_ROW_ID } from '../constants.ts';

/** A decimal number written as text, surrounding spaces allowed ("7", " 2.50 ", "1e3"). */
const NUMBER_TEXT = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/** The number a path parameter's or query string's text spells ("7", " 2.50 "), or null ("", "abc", "0x10", "Infinity"). */
export function numberFromText(text: string): number | null {
  return NUMBER_TEXT.test(text) ? Number(text) : null;
}

/** The message for text sent where a JSON body needs a number ("count must be a number, not text: send 5 without quotes"). */
export function numberAsTextMessage(field: string, text: string): string {
  const spelled = numberFromText(text);
  return spelled === null ? `${field} must be a number, not text` : `${field} must be a number, not text: send ${spelled} without quotes`;
}

/** The field an issue is about, as the request names it ("quantity", "items.0.id"), or null for the request itself. */
function fieldOf(path: readonly PropertyKey[] | undefined): string | null {
  const parts = (path ?? []).filter((part) => typeof part === 'string' || typeof part === 'number');
  return parts.length > 0 ? parts.join('.') : null;
}

function figure(value: unknown): string {
  return typeof value === 'number' && Number.isInteger(value) ? value.toLocaleString('en-US') : String(value);
}

/**
 * The message of a validation problem whose schema gives none of its own: one sentence that names
 * the field ("quantity must be at least 1", "action must be one of: buy, sell", "Required:
 * name"), instead of zod's "Invalid input: expected number, received undefined" or "Too small:
 * expected number to be >0". A schema's own message (the spec's words, "Please enter a number
 * between 1 and 10") is always used as it is. docs/api.md, "Errors".
 */
function fieldMessage(issue: z.core.$ZodRawIssue): string {
  const field = fieldOf(issue.path);
  const name = field ?? 'The request';
  const input = issue.input;
  if (input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_value')) {
    // The spec's word for it (section 5: the schema library's standard 'Required'), then the field.
    return field ? `Required: ${field}` : 'The request needs a JSON object of its fields';
  }
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.expected === 'number' || issue.expected === 'int') {
        if (typeof input === 'string') return numberAsTextMessage(name, input);
        return issue.expected === 'int' && typeof input === 'number' && Number.isFinite(input) ? `${name} must be a whole number` : `${name} must be a number`;
      }
      if (issue.expected === 'string') return `${name} must be text`;
      if (issue.expected === 'boolean') return `${name} must be true or false`;
      if (issue.expected === 'object') return field ? `${field} must be a JSON object` : 'The request must be a JSON object of its fields';
      if (issue.expected === 'array') return `${name} must be a list`;
      return `${name} must be ${issue.expected}`;
    }
    case 'too_small':
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1 ? `${name} cannot be empty` : `${name} must be at least ${figure(issue.minimum)} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `${name} must have at least ${figure(issue.minimum)} items`;
      return issue.inclusive ? `${name} must be at least ${figure(issue.minimum)}` : `${name} must be more than ${figure(issue.minimum)}`;
    case 'too_big':
      if (issue.origin === 'string') return `${name} must be ${figure(issue.maximum)} characters or less`;
      if (issue.origin === 'array' || issue.origin === 'set') return `${name} must have at most ${figure(issue.maximum)} items`;
      return issue.inclusive ? `${name} must be at most ${figure(issue.maximum)}` : `${name} must be less than ${figure(issue.maximum)}`;
    case 'invalid_value':
      return issue.values.length === 1 ? `${name} must be ${String(issue.values[0])}` : `${name} must be one of: ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return issue.format === 'email' ? `${name} must be an email address` : `${name} must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `${name} must be a multiple of ${figure(issue.divisor)}`;
    case 'unrecognized_keys':
      return `Unknown field${issue.keys.length === 1 ? '' : 's'}: ${issue.keys.join(', ')}`;
    default:
      return `${name} is not valid`;
  }
}

// Every schema's problems without a message of their own read as fieldMessage says (the api's
// answers, and the web's forms, which check with the same schemas).
z.config({ customError: fieldMessage });

// Whole numbers start at 1 with min(1), not positive(): a 0 then reads 'quantity must be at least 1'
// (positive() said 'must be more than 0', true but roundabout for a count).

/** A positive whole number (quantity, shares), at most `max`. */
export function positiveIntegerUpTo(max: number, message?: string) {
  return z.number().int().min(1).max(max, message);
}

/** A positive integer id that fits the integer id columns (larger ids cannot exist). */
export const idSchema = z.number().int().min(1).max(MAX_ROW_ID, 'This id does not exist');

/** Any C0 or C1 control character (NUL, ESC, DEL, ...): never part of a name or a text a player types. */
const CONTROL_CHARACTER = /\p{Cc}/u;
/** The same but tab and line breaks, which a multi-line text (a bio) may hold. */
const CONTROL_CHARACTER_BUT_LINE_BREAKS = /(?![\t\n\r])\p{Cc}/u;

/**
 * The bidirectional embedding, override and isolate controls (U+202A-U+202E, U+2066-U+2069): they
 * reorder the text that follows ("\u202Eevil" reads "live"), so a name could pose as another on the
 * leaderboard. Arabic and Hebrew text needs none of them: the browser orders it by itself.
 */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;

/**
 * Whether a text a player typed is free of control characters. PostgreSQL cannot store NUL in
 * text (it answered 500 before this rule), and the others (escape sequences, backspaces, the
 * bidirectional overrides) only garble or disguise what other players and the operators' logs
 * read. `multiline` allows tab and line breaks.
 */
export function hasNoControlCharacters(text: string, options: { multiline?: boolean } = {}): boolean {
  return !(options.multiline ? CONTROL_CHARACTER_BUT_LINE_BREAKS : CONTROL_CHARACTER).test(text) && !BIDI_CONTROL.test(text);
}

/** A character that shows: neither a space nor one of Unicode's invisible ones (zero-width space, joiners, BOM, Hangul fillers...). */
const VISIBLE_CHARACTER = /[^\s\p{Default_Ignorable_Code_Point}]/u;

/**
 * Whether a text shows anything. trim() keeps the zero-width space and its kin, so a name of only
 * those passed "not empty" and showed as a blank line on the leaderboard: it is empty.
 */
export function hasVisibleCharacter(text: string): boolean {
  return VISIBLE_CHARACTER.test(text);
}

/**
 * An invisible character inside a text: Unicode's default-ignorable code points (zero-width space
 * and joiners, soft hyphen, BOM, word joiner, Hangul fillers...), variation selectors excepted (they
 * only pick an emoji's look). In a name they make a copy that looks the same: "Acme\u200B" showed
 * as another "Acme" on the leaderboard although names are unique.
 */
const INVISIBLE_CHARACTER = /(?![\uFE00-\uFE0F])\p{Default_Ignorable_Code_Point}/u;
/** A zero-width joiner between two emoji (👨‍👩‍👧): it draws one emoji of them, so it shows. */
// eslint-disable-next-line no-misleading-character-class -- the class is the optional emoji presentation or skin-tone modifier after an emoji, on purpose
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}[\uFE0F\u{1F3FB}-\u{1F3FF}]?)\u200D(?=\p{Extended_Pictographic})/gu;

/** Whether a name holds no invisible character (INVISIBLE_CHARACTER; joiners inside emoji sequences show, so they pass). */
export function hasNoInvisibleCharacters(text: string): boolean {
  return !INVISIBLE_CHARACTER.test(text.replace(EMOJI_JOINER, ''));
}

/** "Company name cannot contain control characters". */
export function controlCharactersMessage(label: string): string {
  return `${label} cannot contain control characters`;
}

// ---------------------------------------------------------------------------------------------
// Responses: what the API answers (api/src/responses.ts wires each to its route for the OpenAPI
// document and the responses test); the db layer's views are these types (z.infer), so a field is
// declared once.

/** A row's id in an answer. */
export const responseIdSchema = z.number().int().positive();
/** An amount of money in an answer: dollars (cents inside the game). */
export const dollarsSchema = z.number().describe('US dollars, at most two decimals');
export const countSchema = z.number().int().nonnegative();
export const timestampSchema = z.iso.datetime({ offset: true }).describe('ISO 8601 time');
export const tradeActionSchema = z.enum(['buy', 'sell']);

export const okResponseSchema = z.strictObject({ ok: z.literal(true) });
/** Every error answer. */
export const errorResponseSchema = z.strictObject({ error: z.string().describe('A message a player can read') });
