/**
 * The SQL interpreter of the game's rules (shared/src/rules/expr.ts): `ruleSql(rule, columns)`
 * renders a rule's expression over the given SQL fragments, so the turn's set-based statements and
 * the API's read queries compute exactly what `rule.evaluate` computes in TypeScript.
 * (It lives here, not in shared/, so the web bundle never loads drizzle.)
 *
 * Integers are bigint; integer divisions go through numeric so they round exactly as the TypeScript
 * side does (floor, ceil, or halves away from zero); floats are float8.
 */
import { sql, type SQL } from 'drizzle-orm';
import { bounds, isNonNegative, kindOf, type InputSpec, type Node, type Rule } from '@marketcraft/shared';

function sqlNode(tree: Node, columns: Readonly<Record<string, SQL>>, inputs: Readonly<Record<string, InputSpec>>): SQL {
  const render = (item: Node) => sqlNode(item, columns, inputs);
  const asFloat = (item: Node) => (kindOf(item, inputs) === 'float' ? render(item) : sql`(${render(item)})::float8`);
  const isFloat = kindOf(tree, inputs) === 'float';
  const operand = (item: Node) => (isFloat ? asFloat(item) : render(item));
  switch (tree.op) {
    case 'lit':
      return Number.isInteger(tree.value) ? sql.raw(`${tree.value}::bigint`) : sql.raw(`${tree.value}::float8`);
    case 'var': {
      const column = columns[tree.name];
      if (!column) throw new Error(`no SQL given for input ${tree.name}`);
      return inputs[tree.name]?.integer === false ? sql`(${column})::float8` : sql`(${column})::bigint`;
    }
    case 'add':
      return sql`(${sql.join(tree.args.map(operand), sql` + `)})`;
    case 'sub':
      return sql`(${operand(tree.args[0])} - ${operand(tree.args[1])})`;
    case 'mul':
      return sql`(${sql.join(tree.args.map(operand), sql` * `)})`;
    case 'min':
      return sql`least(${sql.join(tree.args.map(operand), sql`, `)})`;
    case 'max':
      return sql`greatest(${sql.join(tree.args.map(operand), sql`, `)})`;
    case 'divFloor':
    case 'divCeil':
    case 'divRound': {
      const [a, b] = tree.args;
      // The dividend provably >= 0 and the divisor > 0 (the rule's domains): exact bigint arithmetic.
      if (isNonNegative(a, inputs) && bounds(b, inputs)[0] > 0) {
        const top = render(a);
        const bottom = render(b);
        if (tree.op === 'divFloor') return sql`((${top}) / (${bottom}))`;
        if (tree.op === 'divCeil') return sql`(((${top}) + (${bottom}) - 1) / (${bottom}))`;
        return sql`((2 * (${top}) + (${bottom})) / (2 * (${bottom})))`;
      }
      const fn = sql.raw(tree.op === 'divFloor' ? 'floor' : tree.op === 'divCeil' ? 'ceil' : 'round');
      return sql`${fn}((${render(a)})::numeric / (${render(b)}))::bigint`;
    }
    case 'div':
      return sql`(${asFloat(tree.args[0])} / ${asFloat(tree.args[1])})`;
    case 'pow':
      return sql`power(${asFloat(tree.args[0])}, ${asFloat(tree.args[1])})`;
    case 'exp':
      return sql`exp(${asFloat(tree.args[0])})`;
    case 'ln':
      return sql`ln(${asFloat(tree.args[0])})`;
    case 'sqrt':
      return sql`sqrt(${asFloat(tree.args[0])})`;
    case 'roundHalfUp':
      return sql`floor(${asFloat(tree.args[0])} + 0.5)::bigint`;
    case 'floor':
      return kindOf(tree.args[0], inputs) === 'int' ? render(tree.args[0]) : sql`floor(${render(tree.args[0])})::bigint`;
    case 'ceil':
      return kindOf(tree.args[0], inputs) === 'int' ? render(tree.args[0]) : sql`ceil(${render(tree.args[0])})::bigint`;
    case 'cmp': {
      const [a, b] = tree.args;
      const mixed = kindOf(a, inputs) === 'float' || kindOf(b, inputs) === 'float';
      const left = mixed ? asFloat(a) : render(a);
      const right = mixed ? asFloat(b) : render(b);
      return sql`(${left} ${sql.raw(tree.cmp)} ${right})`;
    }
    case 'if':
      return sql`(case when ${render(tree.args[0])} then ${operand(tree.args[1])} else ${operand(tree.args[2])} end)`;
  }
}

/** The rule's expression in SQL over `columns` (one SQL fragment per input). */
export function ruleSql<I extends string>(rule: Rule<I>, columns: Readonly<Record<I, SQL>>): SQL {
  return sqlNode(rule.tree, columns as Readonly<Record<string, SQL>>, rule.inputs as Readonly<Record<string, InputSpec>>);
}
