/**
 * "Why this number": a figure the API shows together with where it comes from. The economy's rules
 * (shared/src/rules) produce these for the figures a player sees (a building's output, its
 * efficiency, a store's sales, a company's net worth, ...); the web shows `value` and, on demand, the
 * formula with the value of each term. The web never recomputes a figure: it only formats these.
 */
import { z } from 'zod';

/** How a figure or term is meant to be read (and formatted). Money is in dollars at the API edge. */
const FIGURE_UNITS = ['dollars', 'units', 'percent', 'count', 'weeks', 'ratio'] as const;
export type FigureUnit = (typeof FIGURE_UNITS)[number];

export interface FigureTerm {
  /** The term's name in the formula, e.g. `output_quantity`. */
  name: string;
  /** A player-readable label, e.g. "Recipe output per week". */
  label: string;
  value: number;
  unit: FigureUnit;
}

export interface Figure {
  value: number;
  unit: FigureUnit;
  /** The formula in the terms' names, e.g. `round(output_quantity x rate/100 x efficiency/100)`. */
  formula: string;
  terms: FigureTerm[];
}

const figureTermSchema = z.strictObject({
  name: z.string(),
  label: z.string(),
  value: z.number(),
  unit: z.enum(FIGURE_UNITS),
});

/** The answer schema of a Figure (OpenAPI and the responses test). */
export const figureSchema = z.strictObject({
  value: z.number(),
  unit: z.enum(FIGURE_UNITS),
  formula: z.string(),
  terms: z.array(figureTermSchema),
});
