/**
 * The dashboard's Redis store keeps to its deployment's key prefix, as the limits and money do:
 * deployments sharing one Redis (every distributed test stack here) must not share sessions or
 * sign-up and log-in counters — the sign-up counter is per client address, and every stack's
 * clients are 127.0.0.1.
 */
import { redisUrl, uniqueName } from '@unigate/testing';
import { connectRedisForReservations } from '@unigate/billing/reservations';
import { once } from 'node:events';
import Redis from 'ioredis';
import { RedisWebStore } from '../src/web/web-store';

/** The edge's connection refuses commands until it is up (no offline queue). */
async function store(prefix?: string) {
  const redis = connectRedisForReservations(redisUrl());
  await once(redis, 'ready');
  return new RedisWebStore(redis, prefix);
}

let raw: Redis;
const prefixes = [`${uniqueName('web-a')}:`, `${uniqueName('web-b')}:`];
let stores: RedisWebStore[];
beforeAll(async () => {
  raw = new Redis(redisUrl());
  stores = await Promise.all(prefixes.map((p) => store(p)));
});
afterAll(async () => {
  for (const p of prefixes) {
    const keys = await raw.keys(`${p}*`);
    if (keys.length) await raw.del(...keys);
  }
  await Promise.all(stores.map((s) => s.close()));
  raw.disconnect();
});

test('two deployments on one Redis count and keep sessions apart, each under its own prefix', async () => {
  const [a, b] = stores;
  const counter = 'web:signups:same-address';
  for (let i = 1; i <= 3; i++) expect(await a.hit(counter, 60_000)).toBe(i);
  expect(await b.hit(counter, 60_000)).toBe(1);

  await a.set('web:session:s1', '{"user":"a"}', 60_000);
  expect(await a.get('web:session:s1')).toBe('{"user":"a"}');
  expect(await b.get('web:session:s1')).toBeNull();

  expect(await raw.get(`${prefixes[0]}${counter}`)).toBe('3');
  expect(await raw.pttl(`${prefixes[0]}${counter}`)).toBeGreaterThan(0);
  expect(await raw.get(`${prefixes[0]}web:session:s1`)).toBe('{"user":"a"}');

  await a.del('web:session:s1');
  expect(await raw.exists(`${prefixes[0]}web:session:s1`)).toBe(0);
});

test('without a prefix of its own it uses the services’ default, unigate:', async () => {
  const key = `web:probe:${uniqueName('default')}`;
  const plain = await store();
  try {
    await plain.set(key, 'x', 60_000);
    expect(await raw.get(`unigate:${key}`)).toBe('x');
    await plain.del(key);
  } finally {
    await plain.close();
  }
});
