import { sampleFromSchema } from './json-sample';
import { SeededRandom } from './seeded-random';

const sample = (schema: Record<string, unknown>, seed = 1) => sampleFromSchema(schema, new SeededRandom(seed));

describe('sampleFromSchema', () => {
  it('fills required properties only, with values of the right type', () => {
    const v = sample({
      type: 'object',
      properties: {
        city: { type: 'string' },
        days: { type: 'integer' },
        temp: { type: 'number' },
        ok: { type: 'boolean' },
        extra: { type: 'string' },
      },
      required: ['city', 'days', 'temp', 'ok'],
    }) as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(['city', 'days', 'temp', 'ok']);
    expect(v.city).toBe('Paris');
    expect(Number.isInteger(v.days)).toBe(true);
    expect(typeof v.temp).toBe('number');
    expect(typeof v.ok).toBe('boolean');
  });

  it('fills every property when none are listed as required', () => {
    expect(Object.keys(sample({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'null' } } }) as object)).toEqual([
      'a',
      'b',
    ]);
  });

  it('honours enum, const, ranges, lengths, formats and item counts', () => {
    const v = sample({
      type: 'object',
      properties: {
        unit: { enum: ['kelvin', 'celsius'] },
        kind: { const: 'fixed' },
        n: { type: 'integer', minimum: 10, maximum: 12 },
        x: { type: 'number', minimum: 0.5, maximum: 0.6 },
        code: { type: 'string', minLength: 30, maxLength: 40 },
        when: { type: 'string', format: 'date-time' },
        list: { type: 'array', items: { type: 'integer' }, minItems: 3 },
      },
    }) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(v.unit).toBe('kelvin');
    expect(v.kind).toBe('fixed');
    expect(v.n).toBeGreaterThanOrEqual(10);
    expect(v.n).toBeLessThanOrEqual(12);
    expect(v.x).toBeGreaterThanOrEqual(0.5);
    expect(v.x).toBeLessThanOrEqual(0.6);
    expect(v.code.length).toBeGreaterThanOrEqual(30);
    expect(v.code.length).toBeLessThanOrEqual(40);
    expect(v.when).toBe('2024-05-01T12:00:00Z');
    expect(v.list).toHaveLength(3);
  });

  it('resolves $ref, anyOf with null, allOf and nullable type arrays', () => {
    const v = sample({
      type: 'object',
      properties: {
        owner: { $ref: '#/$defs/person' },
        maybe: { anyOf: [{ type: 'null' }, { type: 'integer' }] },
        merged: {
          allOf: [
            { properties: { a: { type: 'string' } }, required: ['a'] },
            { properties: { b: { type: 'boolean' } }, required: ['b'] },
          ],
        },
        nullable: { type: ['null', 'string'] },
      },
      $defs: { person: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
    }) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(v.owner).toEqual({ name: 'Alice' });
    expect(Number.isInteger(v.maybe)).toBe(true);
    expect(Object.keys(v.merged)).toEqual(['a', 'b']);
    expect(typeof v.nullable).toBe('string');
  });

  it('stops recursing on self-referencing schemas', () => {
    const tree = {
      $defs: { node: { type: 'object', properties: { child: { $ref: '#/$defs/node' } }, required: ['child'] } },
      $ref: '#/$defs/node',
    };
    expect(JSON.stringify(sample(tree))).toMatch(/^\{"child":\{"child":/);
  });

  it('is deterministic for a seed', () => {
    const schema = { type: 'object', properties: { q: { type: 'string' }, n: { type: 'number' } } };
    expect(sample(schema, 42)).toEqual(sample(schema, 42));
  });

  it('refuses, like a vendor, a subschema that is no schema: a 400 naming where', () => {
    for (const [schema, where] of [
      [{ type: 'object', properties: { a: 5 } }, 'schema.properties.a must be a JSON Schema (an object or a boolean), got number'],
      [{ type: 'object', properties: { list: { type: 'array', items: 'x' } } }, 'schema.properties.list.items must be a JSON Schema'],
    ] as const) {
      expect(() => sample(schema)).toThrow(expect.objectContaining({ status: 400, message: expect.stringContaining(where) }));
    }
    expect(sample({ type: 'object', properties: { any: true } })).toEqual({ any: expect.any(String) });
  });

  it('keeps samples small whatever the schema asks, instead of building millions of items', () => {
    const v = sample({
      type: 'object',
      properties: { many: { type: 'array', minItems: 100_000_000, items: { type: 'integer' } }, long: { type: 'string', minLength: 1e9 } },
    }) as { many: unknown[]; long: string };
    expect(v.many.length).toBe(16);
    expect(v.long.length).toBeGreaterThanOrEqual(4096);
    expect(v.long.length).toBeLessThan(4200);
  });
});
