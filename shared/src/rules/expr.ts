/**
 * Rules written once, read three ways.
 *
 * A rule of the game (a building's efficiency, the cost of a market order, a store's weight among
 * its competitors, ...) is an expression over named inputs. It is written ONCE with the builders
 * below and then:
 * - evaluated in TypeScript (`rule.evaluate(values)`: the API's figures, the bots, the web never
 *   recompute: they get these numbers from the API);
 * - rendered to SQL (`ruleSql(rule, { input: sql`column` })` in db/src/ruleSql.ts): the turn's
 *   set-based statements and the API's read queries embed the very same expression;
 * - rendered to text (`rule.explain(values)`): the formula with the value of each term, the
 *   "why this number" a player sees (shared/src/figures.ts).
 * `worker/test/rules-agreement.integration.test.ts` evaluates every rule of `RULES` on random inputs in
 * TypeScript and in PostgreSQL and compares the results, so the two interpreters cannot drift.
 *
 * Arithmetic: integers stay integers (SQL bigint); divisions say how they round (divFloor, divCeil,
 * divRound = half away from zero, like PostgreSQL's numeric round). Floating point appears only
 * where a rule needs exp/ln/sqrt/pow or a true quotient (`div`), and goes back to integers through
 * `roundHalfUp` (floor(x + 0.5)), `floor` or `ceil`.
 */
import type { Figure, FigureUnit } from '../figures.ts';

export type Node =
  /** `cents`: an amount of money (E.cents), shown in dollars in "why this number". */
  | { op: 'lit'; value: number; cents?: boolean }
  | { op: 'var'; name: string }
  | { op: 'add' | 'mul' | 'min' | 'max'; args: Node[] }
  | { op: 'sub'; args: [Node, Node] }
  | { op: 'divFloor' | 'divCeil' | 'divRound' | 'div' | 'pow'; args: [Node, Node] }
  | { op: 'exp' | 'ln' | 'sqrt' | 'roundHalfUp' | 'floor' | 'ceil'; args: [Node] }
  | { op: 'cmp'; cmp: Comparison; args: [Node, Node] }
  | { op: 'if'; args: [Node, Node, Node] };

export type Comparison = '<' | '<=' | '>' | '>=' | '=' | '<>';
export type Operand = Node | number;

function node(value: Operand): Node {
  return typeof value === 'number' ? { op: 'lit', value } : value;
}

/** The builders rules are written with. */
export const E = {
  /** An amount of money in cents (a wage, a capacity): the same number, but "why this number" writes it in dollars. */
  cents: (value: number): Node => ({ op: 'lit', value, cents: true }),
  add: (...args: Operand[]): Node => ({ op: 'add', args: args.map(node) }),
  sub: (a: Operand, b: Operand): Node => ({ op: 'sub', args: [node(a), node(b)] }),
  mul: (...args: Operand[]): Node => ({ op: 'mul', args: args.map(node) }),
  min: (...args: Operand[]): Node => ({ op: 'min', args: args.map(node) }),
  max: (...args: Operand[]): Node => ({ op: 'max', args: args.map(node) }),
  /** Integer division rounded down. */
  divFloor: (a: Operand, b: Operand): Node => ({ op: 'divFloor', args: [node(a), node(b)] }),
  /** Integer division rounded up. */
  divCeil: (a: Operand, b: Operand): Node => ({ op: 'divCeil', args: [node(a), node(b)] }),
  /** Integer division rounded to the nearest, halves away from zero. */
  divRound: (a: Operand, b: Operand): Node => ({ op: 'divRound', args: [node(a), node(b)] }),
  /** True (floating-point) division. */
  div: (a: Operand, b: Operand): Node => ({ op: 'div', args: [node(a), node(b)] }),
  pow: (a: Operand, b: Operand): Node => ({ op: 'pow', args: [node(a), node(b)] }),
  exp: (a: Operand): Node => ({ op: 'exp', args: [node(a)] }),
  ln: (a: Operand): Node => ({ op: 'ln', args: [node(a)] }),
  sqrt: (a: Operand): Node => ({ op: 'sqrt', args: [node(a)] }),
  /** A float back to an integer: floor(x + 0.5). */
  roundHalfUp: (a: Operand): Node => ({ op: 'roundHalfUp', args: [node(a)] }),
  floor: (a: Operand): Node => ({ op: 'floor', args: [node(a)] }),
  ceil: (a: Operand): Node => ({ op: 'ceil', args: [node(a)] }),
  clamp: (value: Operand, low: Operand, high: Operand): Node => E.max(low, E.min(value, high)),
  cmp: (a: Operand, cmp: Comparison, b: Operand): Node => ({ op: 'cmp', cmp, args: [node(a), node(b)] }),
  if: (condition: Node, then: Operand, otherwise: Operand): Node => ({ op: 'if', args: [condition, node(then), node(otherwise)] }),
};

// -------------------------------------------------------------------------------------------------
// Types: integer or float, inferred from the tree (an integer input is declared `integer`).

type Kind = 'int' | 'float' | 'bool';

export function kindOf(tree: Node, inputs: Readonly<Record<string, InputSpec>>): Kind {
  switch (tree.op) {
    case 'lit':
      return Number.isInteger(tree.value) ? 'int' : 'float';
    case 'var':
      return inputs[tree.name]?.integer === false ? 'float' : 'int';
    case 'add':
    case 'sub':
    case 'mul':
    case 'min':
    case 'max':
      return tree.args.some((arg) => kindOf(arg, inputs) === 'float') ? 'float' : 'int';
    case 'divFloor':
    case 'divCeil':
    case 'divRound':
    case 'roundHalfUp':
    case 'floor':
    case 'ceil':
      return 'int';
    case 'div':
    case 'pow':
    case 'exp':
    case 'ln':
    case 'sqrt':
      return 'float';
    case 'cmp':
      return 'bool';
    case 'if': {
      const [, a, b] = tree.args;
      return kindOf(a, inputs) === 'float' || kindOf(b, inputs) === 'float' ? 'float' : 'int';
    }
  }
}

/**
 * The range a node's value can take, from the inputs' declared domains (interval arithmetic,
 * conservative: [-Infinity, Infinity] when unsure).
 */
export function bounds(tree: Node, inputs: Readonly<Record<string, InputSpec>>): [number, number] {
  const of = (item: Node) => bounds(item, inputs);
  const any: [number, number] = [-Infinity, Infinity];
  switch (tree.op) {
    case 'lit':
      return [tree.value, tree.value];
    case 'var': {
      const spec = inputs[tree.name];
      return spec ? [spec.min, spec.max] : any;
    }
    case 'add':
      return tree.args.map(of).reduce(([lo, hi], [a, b]) => [lo + a, hi + b], [0, 0]);
    case 'sub': {
      const [a, b] = tree.args.map(of) as [[number, number], [number, number]];
      return [a[0] - b[1], a[1] - b[0]];
    }
    case 'mul':
      return tree.args.map(of).reduce(
        ([lo, hi], [a, b]) => {
          const products = [lo * a, lo * b, hi * a, hi * b].map((value) => (Number.isNaN(value) ? 0 : value));
          return [Math.min(...products), Math.max(...products)];
        },
        [1, 1],
      );
    case 'min':
      return [Math.min(...tree.args.map((item) => of(item)[0])), Math.min(...tree.args.map((item) => of(item)[1]))];
    case 'max':
      return [Math.max(...tree.args.map((item) => of(item)[0])), Math.max(...tree.args.map((item) => of(item)[1]))];
    case 'divFloor':
    case 'divCeil':
    case 'divRound':
    case 'div': {
      const [a, b] = tree.args.map(of) as [[number, number], [number, number]];
      if (b[0] <= 0) return any;
      const quotients = [a[0] / b[0], a[0] / b[1], a[1] / b[0], a[1] / b[1]];
      return [Math.floor(Math.min(...quotients)), Math.ceil(Math.max(...quotients))];
    }
    case 'exp':
    case 'sqrt':
      return [0, Infinity];
    case 'roundHalfUp':
    case 'floor':
    case 'ceil': {
      const [lo, hi] = of(tree.args[0]);
      return [Math.floor(lo), Math.ceil(hi)];
    }
    case 'if': {
      const [a, b] = [of(tree.args[1]), of(tree.args[2])];
      return [Math.min(a[0], b[0]), Math.max(a[1], b[1])];
    }
    case 'pow':
    case 'ln':
    case 'cmp':
      return any;
  }
}

/**
 * Whether a node can never be negative. The SQL interpreter uses it to divide integers with bigint
 * arithmetic (truncation is floor for non-negative operands) instead of numeric, several times
 * faster on the turn's hundreds of thousands of rows, with the same result.
 */
export function isNonNegative(tree: Node, inputs: Readonly<Record<string, InputSpec>>): boolean {
  return bounds(tree, inputs)[0] >= 0;
}

// -------------------------------------------------------------------------------------------------
// TypeScript evaluation

/** floor(a / b) for integers, exact (the float quotient is corrected by the remainder). */
function intDivFloor(a: number, b: number): number {
  if (b === 0) throw new RangeError('division by zero');
  let q = Math.floor(a / b);
  if (b > 0) {
    while (q * b > a) q -= 1;
    while ((q + 1) * b <= a) q += 1;
  } else {
    while (q * b < a) q -= 1;
    while ((q + 1) * b >= a) q += 1;
  }
  return q;
}

/** a / b rounded to the nearest integer, halves away from zero (PostgreSQL's numeric round). */
function intDivRound(a: number, b: number): number {
  const sign = Math.sign(a) * Math.sign(b);
  return sign * intDivFloor(2 * Math.abs(a) + Math.abs(b), 2 * Math.abs(b));
}

function evaluateNode(tree: Node, values: Readonly<Record<string, number>>): number {
  const arg = (index: number) => evaluateNode((tree as { args: Node[] }).args[index]!, values);
  switch (tree.op) {
    case 'lit':
      return tree.value;
    case 'var': {
      const value = values[tree.name];
      if (value === undefined) throw new Error(`missing input ${tree.name}`);
      return value;
    }
    case 'add':
      return tree.args.reduce((sum, item) => sum + evaluateNode(item, values), 0);
    case 'sub':
      return arg(0) - arg(1);
    case 'mul':
      return tree.args.reduce((product, item) => product * evaluateNode(item, values), 1);
    case 'min':
      return Math.min(...tree.args.map((item) => evaluateNode(item, values)));
    case 'max':
      return Math.max(...tree.args.map((item) => evaluateNode(item, values)));
    case 'divFloor':
      return intDivFloor(arg(0), arg(1));
    case 'divCeil':
      return -intDivFloor(-arg(0), arg(1));
    case 'divRound':
      return intDivRound(arg(0), arg(1));
    case 'div':
      return arg(0) / arg(1);
    case 'pow':
      return arg(0) ** arg(1);
    case 'exp':
      return Math.exp(arg(0));
    case 'ln':
      return Math.log(arg(0));
    case 'sqrt':
      return Math.sqrt(arg(0));
    case 'roundHalfUp':
      return Math.floor(arg(0) + 0.5);
    case 'floor':
      return Math.floor(arg(0));
    case 'ceil':
      return Math.ceil(arg(0));
    case 'cmp': {
      const a = arg(0);
      const b = arg(1);
      const result = { '<': a < b, '<=': a <= b, '>': a > b, '>=': a >= b, '=': a === b, '<>': a !== b }[tree.cmp];
      return result ? 1 : 0;
    }
    case 'if':
      return arg(0) ? arg(1) : arg(2);
  }
}

// -------------------------------------------------------------------------------------------------
// Text rendering (the formula a player reads)

function formatLiteral(value: number): string {
  return Number.isInteger(value) ? value.toLocaleString('en-US') : String(Number(value.toPrecision(6)));
}

/**
 * The nodes of a rule that are amounts of money (in cents inside the game), so that "why this
 * number" can write the formula in dollars, the unit its terms are shown in: a money input; a sum,
 * difference, min, max or branch with a money operand (its bare literals are money too: the 1 of
 * max(1, price) is one cent); a product with one money factor; money divided by a plain number; a
 * rounding of money. Money over money (a price ratio) and anything under exp/ln/sqrt/pow is a plain
 * number. Literals written with E.cents are money. Every operand of a money sum, min, max or branch
 * is money (the rounding in min(round(e^(ln(price) ...)), ...) rounds to the cent).
 */
export function moneyNodes(tree: Node, inputs: Readonly<Record<string, InputSpec>>): Set<Node> {
  const money = new Set<Node>();
  const promote = (args: readonly Node[]) => {
    for (const arg of args) money.add(arg);
  };
  const visit = (item: Node): boolean => {
    let isMoney = false;
    switch (item.op) {
      case 'lit':
        isMoney = item.cents === true;
        break;
      case 'var':
        isMoney = inputs[item.name]?.cents === true;
        break;
      case 'add':
      case 'sub':
      case 'min':
      case 'max':
      case 'cmp': {
        const flags = item.args.map(visit);
        if (flags.some(Boolean)) {
          promote(item.args);
          isMoney = item.op !== 'cmp';
        }
        break;
      }
      case 'if': {
        visit(item.args[0]);
        const flags = [visit(item.args[1]), visit(item.args[2])];
        if (flags.some(Boolean)) {
          promote([item.args[1], item.args[2]]);
          isMoney = true;
        }
        break;
      }
      case 'mul':
        isMoney = item.args.map(visit).filter(Boolean).length === 1;
        break;
      case 'div':
      case 'divFloor':
      case 'divCeil':
      case 'divRound': {
        const [a, b] = item.args.map(visit);
        isMoney = a === true && b === false;
        break;
      }
      case 'roundHalfUp':
      case 'floor':
      case 'ceil':
        isMoney = visit(item.args[0]);
        break;
      case 'exp':
      case 'ln':
      case 'sqrt':
      case 'pow':
        item.args.forEach(visit);
        break;
    }
    if (isMoney) money.add(item);
    return isMoney;
  };
  visit(tree);
  return money;
}

/**
 * The formula as text. With `money` (the dollars form, moneyNodes), amounts of money are written
 * in dollars: a literal of cents divided by 100, and a rounding of money to the cent says so with
 * a second argument, `round(x, 2)`, as a spreadsheet or PostgreSQL writes it.
 */
function textNode(tree: Node, names: Readonly<Record<string, string>>, money?: ReadonlySet<Node>, parent = 0): string {
  const render = (item: Node, precedence = 0) => textNode(item, names, money, precedence);
  const wrap = (text: string, own: number) => (own < parent ? `(${text})` : text);
  const toCent = money?.has(tree) ? ', 2' : '';
  switch (tree.op) {
    case 'lit':
      return formatLiteral(money?.has(tree) ? tree.value / 100 : tree.value);
    case 'var':
      return names[tree.name] ?? tree.name;
    case 'add':
      return wrap(tree.args.map((item) => render(item, 1)).join(' + '), 1);
    case 'sub':
      return wrap(`${render(tree.args[0], 1)} - ${render(tree.args[1], 2)}`, 1);
    case 'mul':
      return wrap(tree.args.map((item) => render(item, 2)).join(' x '), 2);
    case 'div':
      return wrap(`${render(tree.args[0], 2)} / ${render(tree.args[1], 3)}`, 2);
    case 'pow':
      return wrap(`${render(tree.args[0], 4)}^${render(tree.args[1], 4)}`, 3);
    case 'min':
    case 'max':
      return `${tree.op}(${tree.args.map((item) => render(item)).join(', ')})`;
    case 'divFloor':
      return `floor(${render(tree.args[0], 2)} / ${render(tree.args[1], 3)}${toCent})`;
    case 'divCeil':
      return `ceil(${render(tree.args[0], 2)} / ${render(tree.args[1], 3)}${toCent})`;
    case 'divRound':
      return `round(${render(tree.args[0], 2)} / ${render(tree.args[1], 3)}${toCent})`;
    case 'exp':
      return `e^(${render(tree.args[0])})`;
    case 'ln':
    case 'sqrt':
      return `${tree.op}(${render(tree.args[0])})`;
    case 'floor':
    case 'ceil':
      return `${tree.op}(${render(tree.args[0])}${toCent})`;
    case 'roundHalfUp':
      return `round(${render(tree.args[0])}${toCent})`;
    case 'cmp':
      return `${render(tree.args[0], 1)} ${tree.cmp} ${render(tree.args[1], 1)}`;
    case 'if':
      return `(${render(tree.args[1])} if ${render(tree.args[0])}, else ${render(tree.args[2])})`;
  }
}

// -------------------------------------------------------------------------------------------------
// Rules

export interface InputSpec {
  /** What a player reads in "why this number". */
  label: string;
  unit: FigureUnit;
  /** Money inputs are in cents inside the game; `explain` shows them in dollars. */
  cents?: boolean;
  /** Default true: a whole number (SQL bigint). */
  integer?: boolean;
  /** The domain the agreement test draws from (and the values the game can produce). */
  min: number;
  max: number;
}

export interface RuleDefinition<I extends string> {
  /** camelCase name, unique among RULES. */
  name: string;
  /** What the rule computes, for players (docs and "why this number"). */
  description: string;
  unit: FigureUnit;
  /** The result is cents (shown in dollars by `explain`). */
  cents?: boolean;
  inputs: Record<I, InputSpec>;
  formula: (input: Record<I, Node>) => Node;
  /** Inputs the game can produce together (e.g. an order no larger than 20 market depths); the agreement test draws only these. */
  valid?: (values: Readonly<Record<I, number>>) => boolean;
}

export interface Rule<I extends string = string> {
  readonly name: string;
  readonly description: string;
  readonly unit: FigureUnit;
  readonly cents: boolean;
  readonly inputs: Readonly<Record<I, InputSpec>>;
  readonly tree: Node;
  /** The formula in the inputs' names, in the game's units (money in cents), e.g. "min(100, employees x 10 + equipment_level x 15)". */
  readonly formula: string;
  /**
   * The formula "why this number" shows (`explain(...).formula`): in the unit its terms are shown
   * in, money in dollars: "cash + goods + ..." rather than "cash_cents + ...", the wage of
   * 10,000 cents as 100, rounding to the cent as round(x, 2).
   */
  readonly dollarFormula: string;
  readonly valid: (values: Readonly<Record<I, number>>) => boolean;
  evaluate(values: Readonly<Record<I, number>>): number;
  explain(values: Readonly<Record<I, number>>): Figure;
}

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** A term's name where its value is shown: a money input (cashCents) is shown in dollars, so it is `cash`, not `cash_cents`. */
function termName(name: string, spec: InputSpec): string {
  return spec.cents ? snakeCase(name).replace(/_cents$/, '') : snakeCase(name);
}

const centsToDollarsValue = (cents: number) => Math.round(cents) / 100;

export function defineRule<I extends string>(definition: RuleDefinition<I>): Rule<I> {
  const names = Object.keys(definition.inputs) as I[];
  const variables = Object.fromEntries(names.map((name) => [name, { op: 'var', name } satisfies Node])) as unknown as Record<I, Node>;
  const tree = definition.formula(variables);
  const formula = textNode(tree, Object.fromEntries(names.map((name) => [name, snakeCase(name)])));
  const dollarFormula = textNode(
    tree,
    Object.fromEntries(names.map((name) => [name, termName(name, definition.inputs[name])])),
    moneyNodes(tree, definition.inputs),
  );
  const cents = definition.cents === true;
  const evaluate = (values: Readonly<Record<I, number>>) => {
    for (const name of names) {
      const value = values[name];
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError(`${definition.name}: input ${name} is ${String(value)}`);
    }
    return evaluateNode(tree, values as Readonly<Record<string, number>>);
  };
  return {
    name: definition.name,
    description: definition.description,
    unit: definition.unit,
    cents,
    inputs: definition.inputs,
    tree,
    formula,
    dollarFormula,
    valid: definition.valid ?? (() => true),
    evaluate,
    explain: (values) => {
      const value = evaluate(values);
      return {
        value: cents ? centsToDollarsValue(value) : value,
        unit: definition.unit,
        formula: dollarFormula,
        terms: names.map((name) => {
          const spec = definition.inputs[name];
          const raw = values[name];
          return { name: termName(name, spec), label: spec.label, value: spec.cents ? centsToDollarsValue(raw) : raw, unit: spec.unit };
        }),
      };
    },
  };
}
