/**
 * The dependency rule (docs/architecture.md): which part of the repository may import which.
 * - the web app reads the API's router types only (`import type ... from '@marketcraft/api'`), never
 *   the database layer, the worker or the API's code;
 * - shared (rules and schemas used on both sides) imports nothing of ours outside itself;
 * - no import circle between our modules (a type-only import counts: it still ties the two files),
 *   nor between the domain folders of db/src/game (docs/architecture.md, "Domains": a folder may
 *   use the folders below it, never one above).
 * Imports are found with TypeScript's own pre-processor (static, `export ... from`, dynamic).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const PACKAGES = ['shared', 'db', 'api', 'worker', 'web'] as const;
const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'coverage', '.turbo', '.data', 'migrations', 'public']);

function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (SKIP_DIRS.has(entry)) continue;
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) found.push(...sourceFiles(full));
    else if (SOURCE.test(entry) && !entry.endsWith('.d.ts')) found.push(full);
  }
  return found;
}

function resolveFile(base: string): string | null {
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Our file an import names, or null for a package from the registry. `@marketcraft/x[/y]` is x/src[/y]. */
function resolveImport(from: string, specifier: string): string | null {
  if (specifier.startsWith('.')) return resolveFile(path.resolve(path.dirname(from), specifier));
  const ours = specifier.match(/^@marketcraft\/([^/]+)(?:\/(.*))?$/);
  if (!ours) return null;
  return resolveFile(path.join(repoRoot, ours[1]!, 'src', ours[2] ?? 'index.ts'));
}

interface Import {
  from: string;
  specifier: string;
  to: string | null;
  typeOnly: boolean;
}

function importsOf(file: string): Import[] {
  const source = readFileSync(file, 'utf8');
  const { importedFiles } = ts.preProcessFile(source, true, true);
  return importedFiles.map(({ fileName, pos }) => {
    const statementStart = source.lastIndexOf('\n', pos) + 1;
    const line = source.slice(statementStart, pos);
    return { from: file, specifier: fileName, to: resolveImport(file, fileName), typeOnly: /^\s*(import|export)\s+type\s/.test(line) };
  });
}

const files = [...PACKAGES.flatMap((name) => sourceFiles(path.join(repoRoot, name))), ...sourceFiles(path.join(repoRoot, 'scripts'))];
const imports = files.flatMap(importsOf);
const rel = (file: string) => path.relative(repoRoot, file);
const partOf = (file: string) => rel(file).split(path.sep)[0]!;
const show = (edge: Import) => `${rel(edge.from)} imports '${edge.specifier}'`;

/** Strongly connected groups of two or more nodes (Tarjan), each sorted, in a stable order. */
function circles(next: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let counter = 0;
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1 || next.get(node)?.has(node)) groups.push(group.sort());
    }
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return groups.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** The graph of `edges` with each file named by `nodeOf` (null: left out); an edge inside one node is no edge. */
function graph(edges: Import[], nodeOf: (file: string) => string | null): Map<string, Set<string>> {
  const next = new Map<string, Set<string>>();
  for (const edge of edges) {
    if (!edge.to) continue;
    const from = nodeOf(edge.from);
    const to = nodeOf(edge.to);
    if (from === null || to === null || from === to) continue;
    if (!next.has(from)) next.set(from, new Set());
    next.get(from)!.add(to);
  }
  return next;
}

/** The domain folder of a file under db/src/game (`db/src/game/<domain>/...`), else null. */
const GAME = path.join('db', 'src', 'game') + path.sep;
function domainOf(file: string): string | null {
  const relative = rel(file);
  if (!relative.startsWith(GAME)) return null;
  const parts = relative.slice(GAME.length).split(path.sep);
  return parts.length > 1 ? parts[0]! : null;
}

describe('the dependency rule', () => {
  it('finds the imports it checks', () => {
    // A rule that reads nothing cannot fail: the web's router types and the api's use of db must be seen.
    expect(imports.some((edge) => partOf(edge.from) === 'web' && edge.specifier === '@marketcraft/api')).toBe(true);
    expect(imports.some((edge) => partOf(edge.from) === 'api' && edge.to && partOf(edge.to) === 'db')).toBe(true);
  });

  it('the web app imports neither the database layer nor the worker, and from the API only its router types', () => {
    const wrong = imports.filter((edge) => {
      if (partOf(edge.from) !== 'web' || !edge.to) return false;
      const target = partOf(edge.to);
      if (target === 'web' || target === 'shared') return false;
      return !(edge.specifier === '@marketcraft/api' && edge.typeOnly);
    });
    expect(wrong.map(show)).toEqual([]);
  });

  it('shared imports nothing of ours from outside shared', () => {
    const wrong = imports.filter(
      (edge) => partOf(edge.from) === 'shared' && (edge.specifier.startsWith('@marketcraft/') || (edge.to && partOf(edge.to) !== 'shared')),
    );
    expect(wrong.map(show)).toEqual([]);
  });

  it('has no import circle', () => {
    expect(circles(graph(imports, rel)).map((group) => group.join(' <-> '))).toEqual([]);
  });

  it('has no circle between the domain folders of db/src/game (each domain builds only on the ones below it)', () => {
    const domains = graph(imports, domainOf);
    // The folders are seen: retail builds on buildings (its stores are buildings).
    expect(domains.get('retail')?.has('buildings')).toBe(true);
    expect(circles(domains).map((group) => group.join(' <-> '))).toEqual([]);
  });
});
