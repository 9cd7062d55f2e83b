/** A quantity input's text as a non-negative whole number (anything else reads 0). */
export function parseWholeQuantity(text: string | number): number {
  const value = typeof text === 'number' ? text : Number(text);
  if (!Number.isFinite(value) || value < 0) return 0;
  return Math.floor(value);
}
