/**
 * A price trend in a table cell: a small SVG line of the recent weeks (hundreds of rows, so no chart
 * library here), green when the last point is above the first, red below. Screen readers get the
 * first and last price.
 *
 * The line is drawn once its cell comes near the screen (lib/nearScreen.ts): the
 * market lists 304 products, and a phone shows a dozen. The labelled SVG is there from the start,
 * so a screen reader reads every row's trend and nothing moves when the line appears.
 */
import { startTransition, useEffect, useRef, useState } from 'react';
import { Table, Text } from '@mantine/core';
import { SPARKLINE_WEEKS } from '@marketcraft/shared';
import { formatMoney } from '../lib/format';
import { whenNearScreen } from '../lib/nearScreen';

export function Sparkline({ values, width = 96, height = 28, label }: { values: readonly number[]; width?: number; height?: number; label: string }) {
  const svg = useRef<SVGSVGElement>(null);
  const [drawn, setDrawn] = useState(false);
  useEffect(() => (drawn || !svg.current ? undefined : whenNearScreen(svg.current, () => startTransition(() => setDrawn(true)))), [drawn]);
  const first = values[0];
  const last = values[values.length - 1];
  const description =
    first === undefined || last === undefined
      ? `${label}: no prices yet`
      : values.length === 1
        ? `${label}: ${formatMoney(last)} this week`
        : `${label}: from ${formatMoney(first)} to ${formatMoney(last)} over ${values.length} weeks`;
  if (!drawn) return <svg ref={svg} width={width} height={height} role="img" aria-label={description} />;
  if (values.length < 2 || first === undefined || last === undefined) {
    return (
      <svg width={width} height={height} role="img" aria-label={description}>
        <line x1={0} x2={width} y1={height / 2} y2={height / 2} stroke="var(--mantine-color-dimmed)" strokeDasharray="2 3" />
      </svg>
    );
  }
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = high - low || 1;
  const step = width / (values.length - 1);
  const points = values.map((value, index) => `${(index * step).toFixed(1)},${(height - 2 - ((value - low) / span) * (height - 4)).toFixed(1)}`).join(' ');
  const color = last > first ? 'var(--mantine-color-green-text)' : last < first ? 'var(--mantine-color-red-text)' : 'var(--mantine-color-dimmed)';
  return (
    <svg width={width} height={height} role="img" aria-label={description}>
      <polyline points={points} fill="none" stroke={color} strokeWidth={1.5} strokeLinejoin="round" strokeLinecap="round" />
    </svg>
  );
}

/** The header of a table's sparkline column: 'Trend' and the period the line covers (SPARKLINE_WEEKS). */
export function TrendTh() {
  return (
    <Table.Th>
      {/* The line's colour is the period's change (first week to this one), not the Week column's. */}
      Trend{' '}
      <Text span size="xs" c="dimmed" fw={400} data-testid="trend-period">
        {SPARKLINE_WEEKS} weeks
      </Text>
    </Table.Th>
  );
}
