/**
 * The docs name real things: every repository file or folder that README.md or docs/*.md names
 * (`db/src/game/stocks.ts`, `worker/src/turn/`), with its line numbers when it gives some
 * (`batch.ts:420-449` style, `path:line` or `path:from-to`), exists and has those lines; and every
 * `docs/<name>.md` that the code's comments point to exists. A path counts when it starts with
 * one of the repository's top-level folders or is a file at the root; globs (`*.ts`) and build
 * output (`dist/`, `.data/`, `node_modules/`) are not checked.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const tracked = execFileSync('git', ['ls-files'], { cwd: repoRoot, encoding: 'utf8' }).split('\n').filter(Boolean);
const TOP = [...new Set(tracked.filter((file) => file.includes('/')).map((file) => file.split('/')[0]!))].filter(
  (dir) => !dir.startsWith('.') || dir === '.ci',
);
const ROOT_FILES = new Set(tracked.filter((file) => !file.includes('/')));
const GENERATED = /(^|\/)(dist|\.data|node_modules|coverage|\.turbo|test-results)(\/|$)/;

const docs = [
  'README.md',
  ...readdirSync(path.join(repoRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** `path`, `path:12` or `path:12-30`, as written in a doc. */
const PATH_PATTERN = new RegExp(`(?<![\\w./-])((?:${TOP.map((dir) => dir.replace('.', '\\.')).join('|')})/[\\w./@*-]*[\\w/*])(?::(\\d+)(?:-(\\d+))?)?`, 'g');
const ROOT_FILE_PATTERN = /(?<![\w./-])([\w.-]+\.(?:json|ts|md|js|mjs))(?::(\d+)(?:-(\d+))?)?(?![\w/])/g;

interface Reference {
  doc: string;
  line: number;
  target: string;
  from?: number;
  to?: number;
}

function referencesIn(doc: string): Reference[] {
  const found: Reference[] = [];
  readFileSync(path.join(repoRoot, doc), 'utf8')
    .split('\n')
    .forEach((text, index) => {
      for (const match of text.matchAll(PATH_PATTERN)) {
        const target = match[1]!.replace(/[.]+$/, '');
        if (target.includes('*') || GENERATED.test(target)) continue;
        found.push({ doc, line: index + 1, target, from: match[2] ? Number(match[2]) : undefined, to: match[3] ? Number(match[3]) : undefined });
      }
      for (const match of text.matchAll(ROOT_FILE_PATTERN)) {
        if (!ROOT_FILES.has(match[1]!) && !match[2]) continue;
        if (!ROOT_FILES.has(match[1]!)) continue; // a bare file name with a line elsewhere in the tree is ambiguous
        found.push({ doc, line: index + 1, target: match[1]!, from: match[2] ? Number(match[2]) : undefined, to: match[3] ? Number(match[3]) : undefined });
      }
    });
  return found;
}

const references = docs.flatMap(referencesIn);
const where = (reference: Reference) =>
  `${reference.doc}:${reference.line} names ${reference.target}${reference.from ? `:${reference.from}${reference.to ? `-${reference.to}` : ''}` : ''}`;

describe('the docs name real files', () => {
  it('finds the references it checks', () => {
    // A check that reads nothing cannot fail.
    expect(references.filter((reference) => reference.target === 'db/src/ruleSql.ts').length).toBeGreaterThan(0);
    expect(references.length).toBeGreaterThan(100);
  });

  it('every file or folder a doc names exists', () => {
    const missing = references.filter((reference) => !existsSync(path.join(repoRoot, reference.target)));
    expect(missing.map(where)).toEqual([]);
  });

  it('every line a doc points to is within its file', () => {
    const outside = references.filter((reference) => {
      if (reference.from === undefined) return false;
      const file = path.join(repoRoot, reference.target);
      if (!existsSync(file) || !statSync(file).isFile()) return true;
      const lines = readFileSync(file, 'utf8').split('\n').length;
      return reference.from < 1 || reference.from > lines || (reference.to !== undefined && (reference.to < reference.from || reference.to > lines));
    });
    expect(outside.map(where)).toEqual([]);
  });

  it('no doc names a folder outside the repository', () => {
    const outside = docs.flatMap((doc) =>
      readFileSync(path.join(repoRoot, doc), 'utf8')
        .split('\n')
        .flatMap((text, index) => (/(?<![\w.])\/(work|root|home|tmp)\//.test(text) ? [`${doc}:${index + 1}: ${text.trim()}`] : [])),
    );
    expect(outside).toEqual([]);
  });

  it("every docs/*.md the code's comments point to exists", () => {
    const code = tracked.filter((file) => /\.(ts|tsx|js|mjs|sql)$/.test(file) && !GENERATED.test(file));
    const missing = code.flatMap((file) =>
      [...readFileSync(path.join(repoRoot, file), 'utf8').matchAll(/docs\/[\w-]+\.md/g)]
        .map((match) => match[0])
        .filter((doc) => !existsSync(path.join(repoRoot, doc)))
        .map((doc) => `${file} names ${doc}`),
    );
    expect([...new Set(missing)]).toEqual([]);
  });
});
