import { describe, expect, it } from 'vitest';
import { exportFileName } from '../src/game/worlds/classroom.ts';

describe('exportFileName', () => {
  it("starts with the world's name, so a teacher's downloads say which class they are", () => {
    expect(exportFileName('Econ 101 (Monday)', 7, 'companies')).toBe('econ-101-monday-world-7-companies.csv');
  });

  it('keeps letters without their accents and drops anything a header could not carry', () => {
    expect(exportFileName('Économie "B" / 2026', 3, 'prices')).toBe('economie-b-2026-world-3-prices.csv');
  });

  it("a name without plain letters or digits keeps 'world-{id}-'; a long one is cut at 60 characters", () => {
    expect(exportFileName('経済学', 4, 'transactions')).toBe('world-4-transactions.csv');
    expect(exportFileName('a'.repeat(80), 5, 'prices')).toBe(`${'a'.repeat(60)}-world-5-prices.csv`);
  });
});
