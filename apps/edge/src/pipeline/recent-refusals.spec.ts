import { RecentRefusals } from './recent-refusals';

test('a refused key is remembered for its window, then forgotten', () => {
  let now = 1_000;
  const refusals = new RecentRefusals(1_000, 100, () => now);
  expect(refusals.has('k1')).toBe(false);
  refusals.note('k1');
  expect(refusals.has('k1')).toBe(true);
  expect(refusals.has('k2')).toBe(false);
  now += 999;
  expect(refusals.has('k1')).toBe(true);
  now += 1;
  expect(refusals.has('k1')).toBe(false);
});

test('a new refusal extends the window', () => {
  let now = 0;
  const refusals = new RecentRefusals(1_000, 100, () => now);
  refusals.note('k1');
  now = 900;
  refusals.note('k1');
  now = 1_500;
  expect(refusals.has('k1')).toBe(true);
});

test('a flood of distinct keys keeps at most the bound, newest kept', () => {
  const refusals = new RecentRefusals(60_000, 100);
  for (let i = 0; i < 1_000; i++) refusals.note(`k${i}`);
  expect(refusals.has('k999')).toBe(true);
  expect(refusals.has('k0')).toBe(false);
  const kept = Array.from({ length: 1_000 }, (_, i) => refusals.has(`k${i}`)).filter(Boolean).length;
  expect(kept).toBeLessThanOrEqual(100);
});
