/**
 * One convention for the full stop of every message a player reads (issue 26; docs/api.md, "Error
 * messages"), the spec's:
 * - an error message of one sentence has none ('Please enter a valid price', 'Company name cannot be
 *   empty'); one of several sentences ends each with one ('Failed to advance the turn. Check the
 *   server logs.', 'Insufficient funds. Sell goods or earn dividends to raise capital.');
 * - a success toast's text is a sentence with a full stop ('Your new {building name} is now
 *   operational.', 'Your political influence has increased.'); its title has none.
 * Read from the sources: every error the server throws or answers, every message constant and
 * schema message, and the web's toasts (error fallbacks and success texts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER = ['api/src', 'db/src', 'shared/src', 'worker/src'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'seed' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

/** A string literal (quotes or backticks, no line break) after one of the places a message goes. */
const LITERAL = String.raw`('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|` + '`(?:[^`\\\\\\n]|\\\\.)*`)';
const places = (list: string[]) => list.map((place) => new RegExp(place + LITERAL, 'g'));
/** Where the server puts an error message. */
const SERVER_ERRORS = places([
  String.raw`GameError\(\s*'[A-Z_]+',\s*`,
  String.raw`\bmessage:\s*`,
  String.raw`\berror:\s*`,
  String.raw`export const [A-Z][A-Z0-9_]*(?:MESSAGE|NOT_FOUND|ENDED|FULL|_ONLY|RUNNING)[A-Z0-9_]*\s*=\s*`,
]);
/** The web's error toasts: notifyError(title, message), notifyFailure(title, error, fallback). */
const WEB_ERRORS = places([String.raw`notifyError\(\s*'[^']*',\s*`, String.raw`notifyFailure\(\s*'[^']*',\s*\w+,\s*`]);
/** The web's success and info toasts' texts: notifySuccess(title, text), notifyInfo(title, text), notifyLatest(key, title, text). */
const WEB_SUCCESSES = places([String.raw`notify(?:Success|Info)\(\s*'[^']*',\s*`, String.raw`notifyLatest\(\s*'[^']*',\s*'[^']*',\s*`]);

interface Found {
  file: string;
  text: string;
}

function messages(dirs: string[], where: RegExp[]): Found[] {
  const found: Found[] = [];
  for (const dir of dirs) {
    for (const file of sourceFiles(path.join(root, dir))) {
      const source = readFileSync(file, 'utf8');
      for (const place of where) {
        for (const match of source.matchAll(place)) {
          const text = match[1]!.slice(1, -1);
          // Sentences only: a word, a space and another word (not codes, keys or URLs).
          if (!/^[A-Z${]/.test(text) || !/\w \w/.test(text)) continue;
          found.push({ file: path.relative(root, file), text });
        }
      }
    }
  }
  return found;
}

/** Several sentences: a full stop, question or exclamation mark followed by a space and a capital (or a placeholder). */
const severalSentences = (text: string) => /[.?!] +[A-Z$]/.test(text.replace(/\b(?:e\.g|i\.e|etc|vs|Co|Inc|Ltd|St)\./g, ''));
const endsWithStop = (text: string) => /[^.]\.$/.test(text);

describe('message full stops', () => {
  const errors = [...messages(SERVER, SERVER_ERRORS), ...messages(['web/src'], WEB_ERRORS)];
  const successes = messages(['web/src'], WEB_SUCCESSES);

  it('reads the messages from the sources', () => {
    // Floors, so a broken pattern cannot pass by finding nothing.
    expect(errors.length).toBeGreaterThan(150);
    expect(successes.length).toBeGreaterThan(10);
    expect(errors.map((message) => message.text)).toEqual(expect.arrayContaining(['Please sign in to continue', 'Admins only', 'Please enter a valid price']));
  });

  it('an error message of one sentence has no full stop; one of several ends with one', () => {
    const wrong = errors
      .filter((message) => (severalSentences(message.text) ? !/[.?!]$/.test(message.text) : endsWithStop(message.text)))
      .map((message) => `${message.file}: ${message.text}`);
    expect(wrong).toEqual([]);
  });

  it("a success toast's text ends with a full stop (unless it ends with a placeholder: '10 units of Bread')", () => {
    expect(successes.filter((message) => !/[.?!}]$/.test(message.text)).map((message) => `${message.file}: ${message.text}`)).toEqual([]);
  });
});
