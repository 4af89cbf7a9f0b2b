import { GatewayError, hashApiKey, type BillingPort, type KeyPrincipal } from '@unigate/contracts';
import type { FastifyRequest } from 'fastify';
import { Authenticator } from './authenticator';
import { STALE_IF_ERROR_MS } from './key-cache';

const KEY = 'sk-known';
const TTL = 30_000;
const principal = { key_id: 'key_1', account_id: 'acct_1' } as unknown as KeyPrincipal;
const requestWith = (key: string) => ({ headers: { authorization: `Bearer ${key}` } }) as unknown as FastifyRequest;

/** Billing whose Authenticate answers are settled by the test, one at a time. */
function fakeBilling() {
  const calls: Array<{ hash: string; resolve: (p: KeyPrincipal | null) => void; reject: (err: unknown) => void }> = [];
  const billing = {
    authenticate: (hash: string) => new Promise<KeyPrincipal | null>((resolve, reject) => calls.push({ hash, resolve, reject })),
  } as unknown as BillingPort;
  return { billing, calls };
}

const unavailable = () => new GatewayError({ status: 503, code: 'service_unavailable', type: 'server_error', message: 'down' });
const tick = () => new Promise((r) => setImmediate(r));

function setUp() {
  let now = 0;
  const { billing, calls } = fakeBilling();
  const events: boolean[] = [];
  const auth = new Authenticator(billing, { ttlMs: TTL, now: () => now, onBillingFailing: (failing) => events.push(failing) });
  // As a promise whichever way it answered (a cached key answers at once).
  const authenticate = async (key = KEY) => auth.authenticate(requestWith(key));
  /** Authenticates KEY once, billing answering with the principal. */
  const learn = async () => {
    const p = authenticate();
    await tick();
    calls.shift()!.resolve(principal);
    await expect(p).resolves.toBe(principal);
  };
  return { auth, calls, events, authenticate, learn, at: (ms: number) => (now = ms) };
}

describe('Authenticator', () => {
  it('asks billing once, then answers from the cache within the TTL', async () => {
    const { calls, authenticate, learn, at } = setUp();
    await learn();
    expect(calls).toHaveLength(0);
    at(TTL / 2 - 1);
    await expect(authenticate()).resolves.toBe(principal);
    await tick();
    expect(calls).toHaveLength(0);
  });

  it('answers a cached key at once, without a promise, and a key nobody knows with a 401', async () => {
    const { auth, calls, learn } = setUp();
    await learn();
    expect(auth.authenticate(requestWith(KEY))).toBe(principal);
    const unknown = auth.authenticate(requestWith('sk-unknown'));
    expect(unknown).toBeInstanceOf(Promise);
    await tick();
    calls.shift()!.resolve(null);
    await expect(unknown).rejects.toMatchObject({ status: 401 });
  });

  it('looks a busy key up again in the background after half its TTL, answering from the cache meanwhile, once', async () => {
    const { calls, authenticate, learn, at } = setUp();
    await learn();
    at(TTL / 2);
    await expect(authenticate()).resolves.toBe(principal);
    await expect(authenticate()).resolves.toBe(principal);
    await tick();
    expect(calls.map((c) => c.hash)).toEqual([hashApiKey(KEY)]);
    calls.shift()!.resolve(principal);
    await tick();
    // The refresh was cached: half a TTL after it, billing is not asked yet.
    at(TTL / 2 + TTL / 2 - 1);
    await expect(authenticate()).resolves.toBe(principal);
    await tick();
    expect(calls).toHaveLength(0);
  });

  it('shares one lookup between the requests of one key', async () => {
    const { calls, authenticate } = setUp();
    const answers = [authenticate(), authenticate(), authenticate()];
    await tick();
    expect(calls).toHaveLength(1);
    calls[0].resolve(principal);
    await expect(Promise.all(answers)).resolves.toEqual([principal, principal, principal]);
  });

  it('past the TTL asks billing and waits; when billing fails, serves the key it confirmed, then stops waiting until billing answers again', async () => {
    const { calls, events, authenticate, learn, at } = setUp();
    await learn();
    at(TTL);
    const waiting = authenticate();
    await tick();
    expect(calls).toHaveLength(1);
    calls.shift()!.reject(unavailable());
    await expect(waiting).resolves.toBe(principal);
    expect(events).toEqual([true]);

    // Billing known to fail: answered at once, one background lookup at a time.
    await expect(authenticate()).resolves.toBe(principal);
    await expect(authenticate()).resolves.toBe(principal);
    await tick();
    expect(calls).toHaveLength(1);
    calls.shift()!.resolve(principal);
    await tick();
    expect(events).toEqual([true, false]);
    // Back: the fresh answer serves without billing.
    at(TTL + 1);
    await authenticate();
    await tick();
    expect(calls).toHaveLength(0);
  });

  it('does not serve a key past the stale bound, nor one billing never confirmed, when billing fails', async () => {
    const { calls, authenticate, learn, at } = setUp();
    await learn();
    at(TTL + STALE_IF_ERROR_MS);
    const tooOld = authenticate();
    await tick();
    calls.shift()!.reject(unavailable());
    await expect(tooOld).rejects.toMatchObject({ status: 503 });

    const unknown = authenticate('sk-never-seen');
    await tick();
    calls.shift()!.reject(unavailable());
    await expect(unknown).rejects.toMatchObject({ status: 503 });
  });

  it('answers 401 for a key billing does not know, and forgets that within a second', async () => {
    const { calls, authenticate, at } = setUp();
    const first = authenticate('sk-unknown');
    await tick();
    calls.shift()!.resolve(null);
    await expect(first).rejects.toMatchObject({ status: 401 });
    await expect(authenticate('sk-unknown')).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(0);
    at(1_000);
    const later = authenticate('sk-unknown');
    await tick();
    expect(calls).toHaveLength(1);
    calls.shift()!.resolve(principal);
    await expect(later).resolves.toBe(principal);
  });

  it('a revocation drops the key at once, and an answer billing gave before it is not cached', async () => {
    const { auth, calls, authenticate, learn } = setUp();
    await learn();
    auth.stale(hashApiKey(KEY));
    const racing = authenticate();
    await tick();
    auth.stale(hashApiKey(KEY));
    calls.shift()!.resolve(principal);
    await racing;
    const next = authenticate();
    await tick();
    expect(calls).toHaveLength(1);
    calls.shift()!.resolve(null);
    await expect(next).rejects.toMatchObject({ status: 401 });
  });

  it('does not serve a key past its TTL when a revocation came while billing failed to answer', async () => {
    const { auth, calls, authenticate, learn, at } = setUp();
    await learn();
    at(TTL);
    const waiting = authenticate();
    await tick();
    auth.stale(hashApiKey('sk-some-other-key'));
    calls.shift()!.reject(unavailable());
    await expect(waiting).rejects.toMatchObject({ status: 503 });
  });
});
