/**
 * Every rule of the economy is written once (shared/src/rules, the rule DSL) and read two ways:
 * `rule.evaluate` in TypeScript (the API's figures, the bots) and `ruleSql` in PostgreSQL (the
 * turn's set-based statements, the API's read queries). This test draws random inputs for EVERY
 * rule in RULES (fast-check, fixed seed, within each input's declared domain and the rule's `valid`
 * predicate), evaluates them both ways, and requires the same answer: integers exactly, floats to
 * 12 significant digits. A rule added to RULES is covered without touching this file.
 *
 * One allowance: a rule that rounds a floating-point value (exp, ln, pow) to whole cents may land on
 * the other side of a rounding boundary when the two math libraries differ in the last bit, so
 * such rules may differ by 1 (a cent or a unit). That is why a trade's money is always computed by
 * one side only (PostgreSQL, in the trade's statement) and TypeScript is used for quotes and
 * estimates (db/src/game/goods/market.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { RULES, kindOf, type InputSpec, type Node, type Rule } from '@marketcraft/shared';
import { ruleSql } from '../src/ruleSql.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing/freshDatabase.ts';

const SAMPLES_PER_RULE = 300;

function inputArbitrary(spec: InputSpec): fc.Arbitrary<number> {
  if (spec.integer === false) return fc.double({ min: spec.min, max: spec.max, noNaN: true, noDefaultInfinity: true });
  // Edges and small values are where rounding goes wrong: bias toward them.
  const whole = fc.integer({ min: Math.ceil(spec.min), max: Math.floor(spec.max) });
  const small = fc.integer({ min: Math.ceil(spec.min), max: Math.min(Math.floor(spec.max), Math.ceil(spec.min) + 200) });
  return fc.oneof(whole, small, fc.constantFrom(Math.ceil(spec.min), Math.floor(spec.max)));
}

function samples(rule: Rule, seed: number): Record<string, number>[] {
  const names = Object.keys(rule.inputs);
  const record = fc.record(Object.fromEntries(names.map((name) => [name, inputArbitrary(rule.inputs[name]!)])) as Record<string, fc.Arbitrary<number>>);
  return fc.sample(
    record.filter((values) => rule.valid(values)),
    { numRuns: SAMPLES_PER_RULE, seed },
  );
}

/** True when a float appears anywhere in the rule's tree (exp, ln, pow, sqrt, true division, float inputs). */
function usesFloatingPoint(tree: Node, inputs: Rule['inputs']): boolean {
  if (kindOf(tree, inputs) === 'float') return true;
  return 'args' in tree && tree.args.some((child) => usesFloatingPoint(child, inputs));
}

function sqlLiteral(value: number, spec: InputSpec) {
  return spec.integer === false ? sql.raw(`${value}::float8`) : sql.raw(`${value}::bigint`);
}

describe('every rule gives the same answer in TypeScript and in PostgreSQL', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ max: 2 });
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('covers every rule with a distinct name', () => {
    const names = RULES.map((rule) => rule.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThanOrEqual(20);
  });

  for (const [index, rule] of RULES.entries()) {
    it(`${rule.name}: ${rule.formula}`, async () => {
      const names = Object.keys(rule.inputs);
      const drawn = samples(rule, 20_261_123 + index);
      expect(drawn.length).toBeGreaterThan(SAMPLES_PER_RULE / 2);
      const rows = sql.join(
        drawn.map(
          (values, row) =>
            sql`(${sql.raw(String(row))}, ${sql.join(
              names.map((name) => sqlLiteral(values[name]!, rule.inputs[name]!)),
              sql`, `,
            )})`,
        ),
        sql`, `,
      );
      const columns = Object.fromEntries(names.map((name) => [name, sql.raw(`v."${name}"`)]));
      const header = sql.raw(`v(row, ${names.map((name) => `"${name}"`).join(', ')})`);
      const isFloat = kindOf(rule.tree, rule.inputs) === 'float';
      const roundsAFloat = usesFloatingPoint(rule.tree, rule.inputs);
      const result = await database.db.execute<{ row: number; value: string | number | null }>(sql`
        select row, (${ruleSql(rule, columns)})${isFloat ? sql`::float8` : sql`::text`} as value
        from (values ${rows}) as ${header} order by row`);
      const mismatches: string[] = [];
      for (const { row, value } of result) {
        const values = drawn[Number(row)]!;
        const expected = rule.evaluate(values);
        const actual = Number(value);
        const same = isFloat
          ? Math.abs(actual - expected) <= 1e-12 * Math.max(1, Math.abs(expected))
          : Number.isSafeInteger(expected) && (actual === expected || (roundsAFloat && Math.abs(actual - expected) <= 1));
        if (!same) mismatches.push(`${JSON.stringify(values)}: TypeScript ${expected}, PostgreSQL ${String(value)}`);
      }
      expect(mismatches.slice(0, 5)).toEqual([]);
    });
  }
});
