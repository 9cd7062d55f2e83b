import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { idSchema, numberFromText, positiveIntegerUpTo } from './common.ts';
import { hireEmployeesInput, retailPriceSchema } from './buildings.ts';

describe('numbers in request schemas', () => {
  it('take JSON numbers only: number text is read by the REST adapter from paths and query strings, never from a body', () => {
    expect(idSchema.parse(7)).toBe(7);
    expect(retailPriceSchema.parse(2.5)).toBe(2.5);
    for (const text of ['7', ' 12 ', '2.50']) expect(idSchema.safeParse(text).success, text).toBe(false);
    expect(numberFromText('7')).toBe(7);
    expect(numberFromText(' 12 ')).toBe(12);
    expect(numberFromText('2.50')).toBe(2.5);
    expect(positiveIntegerUpTo(1000).parse(numberFromText('1e3'))).toBe(1000);
    for (const text of ['', ' ', 'abc', '0x10', 'Infinity', '1,000']) expect(numberFromText(text), text).toBeNull();
  });

  it('refuses what z.coerce would have turned into a number', () => {
    for (const value of [true, false, null, [5], {}, '', ' ', 'abc', '0x10', 'Infinity', undefined]) {
      expect(idSchema.safeParse(value).success, JSON.stringify(value)).toBe(false);
    }
    expect(hireEmployeesInput.safeParse({ id: 1, count: true }).error?.issues[0]?.message).toBe('Please enter a number between 1 and 10');
    expect(retailPriceSchema.safeParse(0).error?.issues[0]?.message).toBe('Please enter a valid price');
  });

  it('documents the number schema as the input (OpenAPI)', () => {
    expect(z.toJSONSchema(z.object({ id: idSchema }), { io: 'input' }).properties?.id).toMatchObject({ type: 'integer', minimum: 1 });
  });
});

describe('text a player types', () => {
  it('refuses NUL and other control characters in names; a bio keeps its line breaks', async () => {
    const { updateProfileSchema } = await import('./company.ts');
    const { createApiTokenInput } = await import('./apiTokens.ts');
    for (const bad of ['a\u0000b', 'a\u001bb', 'a\u007fb', 'a\u0085b', 'a\nb', 'a\tb']) {
      expect(updateProfileSchema.safeParse({ name: bad }).error?.issues[0]?.message, JSON.stringify(bad)).toBe(
        'Company name cannot contain control characters',
      );
      expect(createApiTokenInput.safeParse({ name: bad, scope: 'read' }).error?.issues[0]?.message).toBe('Token name cannot contain control characters');
    }
    for (const bad of ['a\u0000b', 'a\u001b[31mred', 'a\u0008b']) {
      expect(updateProfileSchema.safeParse({ name: 'Acme', bio: bad }).error?.issues[0]?.message, JSON.stringify(bad)).toBe(
        'Bio cannot contain control characters',
      );
    }
    expect(updateProfileSchema.parse({ name: ' Acme Ünïcode 🚀 ', bio: 'Line one\nLine two\r\n\tindented' })).toEqual({
      name: 'Acme Ünïcode 🚀',
      bio: 'Line one\nLine two\r\n\tindented',
    });
  });
});
