/**
 * What the auction chart shows of a book: prices from a quarter of the posted price to four times
 * it (the maker's schedule lies within), and the units wanted or offered at those prices. Without
 * it one order far from the market set the axes for every player: a bid of a million units at
 * $0.01 (holding $10,100) stretched the units to 1,200,000 and flattened both curves against the
 * left edge; an ask at $1,000,000 did the same to the prices. Such orders still count in the
 * clearing and in the levels the API publishes; the chart says they are off it.
 */
type Level = { price: number; quantity: number };

/** How far from the posted price, either way, the chart's prices reach (a factor). */
const BOOK_CHART_PRICE_FACTOR = 4;

export interface BookWindow {
  /** The top of the price axis (its bottom is $0), rounded up. */
  maxPrice: number;
  /** The right end of the units axis (its left is 0), rounded up. */
  maxUnits: number;
  /** Whether some level lies outside: a price beyond the window, or units beyond maxUnits. */
  clipped: boolean;
  /** The prices shown, for the caption. */
  lowPrice: number;
  highPrice: number;
}

/** The smallest round number (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten) at least `value`: the axes end on a round tick. */
function roundUp(value: number): number {
  if (!(value > 0)) return 0;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10].find((candidate) => candidate * power >= value - 1e-9) ?? 10;
  return Number((step * power).toPrecision(6));
}

export function bookWindow(postedPrice: number, indicativePrice: number | null, levels: readonly Level[]): BookWindow {
  // Around the posted price and around the crossing: it is always on the chart, with its surroundings.
  const centres = indicativePrice === null ? [postedPrice] : [postedPrice, indicativePrice];
  const lowPrice = Math.min(...centres) / BOOK_CHART_PRICE_FACTOR;
  const highPrice = Math.max(...centres) * BOOK_CHART_PRICE_FACTOR;
  const inside = levels.filter((level) => level.price >= lowPrice && level.price <= highPrice);
  const maxPrice = roundUp(Math.max(0, ...inside.map((level) => level.price)));
  const maxUnits = roundUp(Math.max(0, ...inside.map((level) => level.quantity)));
  const clipped = levels.some((level) => level.price < lowPrice || level.price > highPrice || level.quantity > maxUnits);
  return { maxPrice, maxUnits, clipped, lowPrice, highPrice };
}
