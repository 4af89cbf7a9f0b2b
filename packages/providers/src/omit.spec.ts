import { omit } from './omit';

test('omit gives what rest destructuring gives: the other own keys, in their order, values shared', () => {
  const nested = { deep: true };
  const source = { id: 'c1', usage: { n: 1 }, extra_vendor_field: nested, choices: [], object: 'x', nil: null, undef: undefined };
  const { usage: _usage, choices: _choices, ...rest } = source;
  const copy = omit(source, new Set(['usage', 'choices'] as const));
  expect(copy).toEqual(rest);
  expect(Object.keys(copy)).toEqual(Object.keys(rest));
  expect(copy.extra_vendor_field).toBe(nested);
  expect(source.usage).toEqual({ n: 1 }); // the source is not changed
});
