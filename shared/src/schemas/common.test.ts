import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { idSchema, positiveIntegerUpTo } from './common.ts';
import { hireEmployeesInput, retailPriceSchema } from './buildings.ts';

describe('numbers in request schemas', () => {
  it('reads JSON numbers and number text (path parameters, query strings)', () => {
    expect(idSchema.parse(7)).toBe(7);
    expect(idSchema.parse('7')).toBe(7);
    expect(idSchema.parse(' 12 ')).toBe(12);
    expect(retailPriceSchema.parse('2.50')).toBe(2.5);
    expect(positiveIntegerUpTo(1000).parse('1e3')).toBe(1000);
  });

  it('refuses what z.coerce would have turned into a number', () => {
    for (const value of [true, false, null, [5], {}, '', ' ', 'abc', '0x10', 'Infinity', undefined]) {
      expect(idSchema.safeParse(value).success, JSON.stringify(value)).toBe(false);
    }
    expect(hireEmployeesInput.safeParse({ id: 1, count: true }).error?.issues[0]?.message).toBe('Please enter a number between 1 and 10');
    expect(retailPriceSchema.safeParse(0).error?.issues[0]?.message).toBe('Please enter a valid price');
  });

  it('documents the number schema as the input (OpenAPI)', () => {
    expect(z.toJSONSchema(z.object({ id: idSchema }), { io: 'input' }).properties?.id).toMatchObject({ type: 'integer', exclusiveMinimum: 0 });
  });
});
