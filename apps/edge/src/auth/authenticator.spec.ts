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

  it('after events may have been missed, asks billing again for every key at its next use, as past its TTL', async () => {
    const { auth, calls, authenticate, learn, at } = setUp();
    await learn();
    at(1_000);
    auth.recheckAll();
    // Billing's answer is awaited: the key was revoked meanwhile.
    const revoked = authenticate();
    await tick();
    expect(calls).toHaveLength(1);
    calls.shift()!.resolve(null);
    await expect(revoked).rejects.toMatchObject({ status: 401 });

    // Learnt again after the recheck, a key is cached as usual; one rechecked while billing is down is still served.
    at(3_000);
    await learn();
    at(4_000);
    await expect(authenticate()).resolves.toBe(principal);
    await tick();
    expect(calls).toHaveLength(0);
    auth.recheckAll();
    const kept = authenticate();
    await tick();
    calls.shift()!.reject(unavailable());
    await expect(kept).resolves.toBe(principal);
  });

  it('asks billing again at its next use for a key whose lookup was under way when events may have been missed, and serves it while billing cannot answer', async () => {
    const { auth, calls, authenticate } = setUp();
    const racing = authenticate();
    await tick();
    auth.recheckAll();
    calls.shift()!.resolve(principal);
    await expect(racing).resolves.toBe(principal);
    const next = authenticate();
    await tick();
    expect(calls).toHaveLength(1);
    calls.shift()!.resolve(principal);
    await expect(next).resolves.toBe(principal);
    // The same race, then billing away: the answer it gave is what serves the key (until stop 80 it
    // was not kept, and the key got 503s for as long as billing was away).
    const raced = authenticate();
    auth.recheckAll();
    const again = authenticate();
    await tick();
    calls.shift()!.reject(unavailable());
    await expect(Promise.all([raced, again])).resolves.toEqual([principal, principal]);
  });
});

describe('Authenticator: unknown keys per client address', () => {
  /** An authenticator allowing 3 unknown keys per address, whose billing knows only KEY. */
  function limited() {
    let now = 0;
    const asked: string[] = [];
    const billing = {
      authenticate: async (hash: string) => {
        asked.push(hash);
        return hash === hashApiKey(KEY) ? principal : null;
      },
    } as unknown as BillingPort;
    const exhausted: string[] = [];
    const auth = new Authenticator(billing, {
      ttlMs: TTL,
      unknownKeyLimit: 3,
      now: () => now,
      onUnknownKeysExhausted: (a) => exhausted.push(a),
    });
    const from = (ip: string, key: string) => Promise.resolve().then(() => auth.authenticate({ ...requestWith(key), ip }));
    return { from, asked, exhausted, at: (ms: number) => (now = ms) };
  }

  it('refuses 429, without asking billing, a key it has not cached from an address past its unknown keys; cached keys and other addresses go on', async () => {
    const { from, asked, exhausted, at } = limited();
    await expect(from('203.0.113.9', KEY)).resolves.toBe(principal);
    for (const key of ['sk-a', 'sk-b', 'sk-c']) await expect(from('203.0.113.9', key)).rejects.toMatchObject({ status: 401 });
    expect(exhausted).toEqual(['203.0.113.9']);
    expect(asked).toHaveLength(4);
    const refused = await from('203.0.113.9', 'sk-d').catch((e: GatewayError) => e);
    expect(refused).toMatchObject({ status: 429, retryAfter: 10 });
    expect((refused as GatewayError).message).toMatch(/unknown API keys from this address/);
    // A key billing was never asked about, also a real one: refused until the window ends.
    expect(asked).toHaveLength(4);
    // The key this replica knows still works from there; another address still has its budget.
    await expect(from('203.0.113.9', KEY)).resolves.toBe(principal);
    await expect(from('198.51.100.4', 'sk-e')).rejects.toMatchObject({ status: 401 });
    at(9_500);
    await expect(from('203.0.113.9', 'sk-f')).rejects.toMatchObject({ status: 429, retryAfter: 1 });
    at(10_000);
    await expect(from('203.0.113.9', 'sk-f')).rejects.toMatchObject({ status: 401 });
  });

  it('counts only what billing was asked: a key just found unknown, cached a second, spends nothing more', async () => {
    const { from, asked } = limited();
    await expect(from('203.0.113.9', 'sk-a')).rejects.toMatchObject({ status: 401 });
    for (let i = 0; i < 5; i++) await expect(from('203.0.113.9', 'sk-a')).rejects.toMatchObject({ status: 401 });
    expect(asked).toHaveLength(1);
    await expect(from('203.0.113.9', 'sk-b')).rejects.toMatchObject({ status: 401 });
    await expect(from('203.0.113.9', 'sk-c')).rejects.toMatchObject({ status: 401 });
    await expect(from('203.0.113.9', 'sk-d')).rejects.toMatchObject({ status: 429 });
  });

  it('counts an IPv6 address by its /64 and an IPv4 address mapped into IPv6 as itself', async () => {
    const { from } = limited();
    for (const [ip, key] of [
      ['2001:db8:1:2::1', 'sk-a'],
      ['2001:db8:1:2:ffff::9', 'sk-b'],
      ['2001:0db8:0001:0002:0:0:0:7', 'sk-c'],
    ])
      await expect(from(ip, key)).rejects.toMatchObject({ status: 401 });
    await expect(from('2001:db8:1:2::abcd', 'sk-d')).rejects.toMatchObject({ status: 429 });
    await expect(from('2001:db8:1:3::1', 'sk-d')).rejects.toMatchObject({ status: 401 });
    for (const key of ['sk-e', 'sk-f', 'sk-g']) await expect(from('192.0.2.1', key)).rejects.toMatchObject({ status: 401 });
    await expect(from('::ffff:192.0.2.1', 'sk-h')).rejects.toMatchObject({ status: 429 });
  });
});
