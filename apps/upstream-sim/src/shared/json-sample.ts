/**
 * A plausible value for a JSON Schema: objects with their required properties (all properties when
 * none are listed), primitives of the right type, enums and consts honoured, simple $ref/anyOf/oneOf/
 * allOf resolved. Enough for tool-call arguments and `response_format: json_schema` answers; not a
 * full JSON Schema implementation.
 *
 * Like a vendor, it refuses a schema with a subschema that is no schema (`"properties": {"a": 5}`): a
 * 400 naming where. And it keeps samples small whatever the schema asks (`minItems`, `minLength` in
 * the millions): a model would write until max_tokens cut it off, the simulator would build it all first.
 */
import { describeValue, errors } from '@unigate/contracts';
import { proseWords } from './prose';
import type { SeededRandom } from './seeded-random';

type Schema = Record<string, unknown>;

const MAX_DEPTH = 8;
/** The most items of an array and characters of a string a sample holds. */
const MAX_SAMPLED_ITEMS = 16;
const MAX_SAMPLED_CHARS = 4096;

/** Values a reader would expect for common property names. */
const NAMED_STRINGS: ReadonlyArray<[RegExp, string]> = [
  [/city|location|place|address/i, 'Paris'],
  [/country/i, 'France'],
  [/e-?mail/i, 'alice@example.com'],
  [/^(name|full_?name|user_?name|author|person)$/i, 'Alice'],
  [/url|link|href|website/i, 'https://example.com'],
  [/date/i, '2024-05-01'],
  [/time/i, '12:00'],
  [/unit/i, 'celsius'],
  [/lang/i, 'en'],
  [/phone/i, '+33 1 23 45 67 89'],
  [/currency/i, 'EUR'],
  [/timezone|tz/i, 'Europe/Paris'],
  [/color|colour/i, 'blue'],
];

const FORMATS: Record<string, string> = {
  date: '2024-05-01',
  'date-time': '2024-05-01T12:00:00Z',
  time: '12:00:00',
  email: 'alice@example.com',
  uri: 'https://example.com',
  url: 'https://example.com',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
};

export function sampleFromSchema(root: Schema, rng: SeededRandom): unknown {
  return sample(root, root, rng, '', 0, 'schema');
}

function sample(schema: unknown, root: Schema, rng: SeededRandom, name: string, depth: number, at: string): unknown {
  if (typeof schema === 'boolean') return schema ? sampleString({}, rng, name) : null;
  if (!schema || typeof schema !== 'object' || Array.isArray(schema))
    throw errors.invalidRequest(`Invalid schema: ${at} must be a JSON Schema (an object or a boolean), got ${describeValue(schema)}.`);
  const s = resolve(schema as Schema, root);
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const branch = firstBranch(s.anyOf) ?? firstBranch(s.oneOf);
  if (branch) return sample(branch, root, rng, name, depth, at);
  if (Array.isArray(s.allOf)) return sample(mergeAll(s.allOf as Schema[], root), root, rng, name, depth, at);

  switch (typeOf(s)) {
    case 'object':
      return depth >= MAX_DEPTH ? {} : sampleObject(s, root, rng, depth, at);
    case 'array':
      return depth >= MAX_DEPTH ? [] : sampleArray(s, root, rng, name, depth, at);
    case 'integer':
      return sampleNumber(s, rng, true);
    case 'number':
      return sampleNumber(s, rng, false);
    case 'boolean':
      return rng.chance(0.5);
    case 'null':
      return null;
    default:
      return sampleString(s, rng, name);
  }
}

function resolve(schema: Schema, root: Schema): Schema {
  let s = schema;
  for (let hops = 0; typeof s.$ref === 'string' && hops < 10; hops++) {
    const path = s.$ref.replace(/^#\/?/, '').split('/').filter(Boolean);
    let target: unknown = root;
    for (const part of path) target = (target as Schema | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (!target || typeof target !== 'object') return {};
    s = target as Schema;
  }
  return s;
}

function firstBranch(branches: unknown): Schema | undefined {
  if (!Array.isArray(branches)) return undefined;
  const schemas = branches.filter((b): b is Schema => !!b && typeof b === 'object');
  return schemas.find((b) => b.type !== 'null') ?? schemas[0];
}

function mergeAll(parts: Schema[], root: Schema): Schema {
  const merged: Schema = { type: 'object', properties: {}, required: [] };
  for (const p of parts.map((x) => resolve(x, root))) {
    merged.properties = { ...(merged.properties as Schema), ...((p.properties as Schema | undefined) ?? {}) }; // spread, not assign: a key may be `__proto__`
    (merged.required as string[]).push(...((p.required as string[] | undefined) ?? []));
    if (p.type && p.type !== 'object') return p;
  }
  return merged;
}

function typeOf(s: Schema): string | undefined {
  const t = Array.isArray(s.type) ? ((s.type as string[]).find((x) => x !== 'null') ?? 'null') : s.type;
  if (typeof t === 'string') return t;
  if (s.properties) return 'object';
  if (s.items) return 'array';
  return undefined;
}

function sampleObject(s: Schema, root: Schema, rng: SeededRandom, depth: number, at: string): Record<string, unknown> {
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  const keys = Array.isArray(s.required) ? (s.required as string[]) : Object.keys(properties);
  // Own keys only, and defined as data (fromEntries): a property may be named `constructor` or `__proto__`.
  const own = (key: string) => (Object.hasOwn(properties, key) ? properties[key] : {});
  return Object.fromEntries(keys.map((key) => [key, sample(own(key), root, rng, key, depth + 1, `${at}.properties.${key}`)]));
}

function sampleArray(s: Schema, root: Schema, rng: SeededRandom, name: string, depth: number, at: string): unknown[] {
  const min = typeof s.minItems === 'number' ? s.minItems : 1;
  const max = typeof s.maxItems === 'number' ? s.maxItems : Math.max(min, 2);
  const count = Math.min(Math.max(min, 1), max, MAX_SAMPLED_ITEMS);
  const items = s.items === undefined || Array.isArray(s.items) ? {} : s.items;
  return Array.from({ length: count }, () => sample(items, root, rng, name, depth + 1, `${at}.items`));
}

function sampleNumber(s: Schema, rng: SeededRandom, integer: boolean): number {
  const lo = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 1;
  const hi =
    typeof s.maximum === 'number' ? s.maximum : typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - 1 : Math.max(lo, 100);
  if (integer) return rng.int(Math.ceil(lo), Math.max(Math.ceil(lo), Math.floor(hi)));
  return Math.round((lo + rng.next() * (hi - lo)) * 100) / 100;
}

function sampleString(s: Schema, rng: SeededRandom, name: string): string {
  let value =
    (typeof s.format === 'string' ? FORMATS[s.format] : undefined) ??
    NAMED_STRINGS.find(([re]) => re.test(name))?.[1] ??
    proseWords(rng, rng.int(2, 4)).join(' ');
  const min = typeof s.minLength === 'number' ? Math.min(s.minLength, MAX_SAMPLED_CHARS) : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
  while (value.length < min) value += ' ' + proseWords(rng, 1)[0];
  return value.slice(0, max);
}
