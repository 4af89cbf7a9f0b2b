/** Accounts, credits, keys and the bootstrap key against real Postgres. */
import { MAX_ACTIVE_KEYS, MAX_BALANCE_MICROS, REVOKED_KEYS_LISTED, TOPICS, type KeyStale } from '@unigate/contracts';
import { hashApiKey } from '../src';
import { startHarness, waitFor, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

test('an account starts with its credit; amounts round-trip exactly in micro-USD', async () => {
  const acc = await h.domain.billing.createAccount('acme', 12_345_678);
  expect(acc).toEqual({ id: expect.any(String), name: 'acme', balance_usd: 12.345678, reserved_usd: 0 });
  const [row] = await h.ds.query(`SELECT balance_micros::text AS b FROM billing.accounts WHERE id = $1`, [acc.id]);
  expect(row.b).toBe('12345678');
  await expect(h.domain.billing.getAccount('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ status: 404 });
  await expect(h.domain.billing.createAccount('', 0)).rejects.toMatchObject({ status: 400 });
});

test('a credit with a reference applies once, however often it is repeated', async () => {
  const acc = await h.domain.billing.createAccount('credits', 0);
  const results = await Promise.all(Array.from({ length: 5 }, () => h.domain.billing.credit(acc.id, 2_500_000, 'invoice-42')));
  for (const r of results) expect(r).toEqual({ balance_usd: 2.5 });
  expect(await h.domain.billing.credit(acc.id, 1_000_000)).toEqual({ balance_usd: 3.5 });
  expect(await h.domain.billing.credit(acc.id, 1_000_000)).toEqual({ balance_usd: 4.5 }); // no reference: each applies
  expect(await h.domain.billing.credit(acc.id, 2_500_000, 'invoice-42')).toEqual({ balance_usd: 4.5 });
  // The same reference with another amount is not a replay: refused, and nothing changes.
  await expect(h.domain.billing.credit(acc.id, 3_000_000, 'invoice-42')).rejects.toMatchObject({
    status: 409,
    param: 'reference',
    message: expect.stringContaining('2.5 USD'),
  });
  expect(await h.domain.billing.getAccount(acc.id)).toMatchObject({ balance_usd: 4.5 });
  await expect(h.domain.billing.credit(acc.id, 0)).rejects.toMatchObject({ status: 400 });
  await expect(h.domain.billing.credit('nope', 1)).rejects.toMatchObject({ status: 404 });
});

test('a credit that would take the balance past its ceiling is refused and leaves nothing behind', async () => {
  // Past 2^53 micro-USD a balance stops being exact, and reading the account failed with a 500 for good.
  const acc = await h.domain.billing.createAccount('ceiling', MAX_BALANCE_MICROS - 1);
  expect(await h.domain.billing.credit(acc.id, 1)).toEqual({ balance_usd: MAX_BALANCE_MICROS / 1e6 });
  await expect(h.domain.billing.credit(acc.id, 1, 'one-too-many')).rejects.toMatchObject({ status: 400, param: 'amount_usd' });
  expect(await h.domain.billing.getAccount(acc.id)).toMatchObject({ balance_usd: MAX_BALANCE_MICROS / 1e6 });
  const [row] = await h.ds.query(`SELECT count(*)::int AS n FROM billing.credits WHERE account_id = $1 AND reference = 'one-too-many'`, [
    acc.id,
  ]);
  expect(row.n).toBe(0);
});

test('a created key is sk- + 48 base62, stored only as its hash, and authenticates to its principal', async () => {
  const acc = await h.domain.billing.createAccount('keys', 0);
  const created = await h.domain.billing.createKey(acc.id, { name: 'ci', models: ['gpt-test'], rate_limit_rpm: 60, max_concurrency: 2 });
  expect(created.key).toMatch(/^sk-[0-9A-Za-z]{48}$/);

  const rows = await h.ds.query(`SELECT * FROM billing.api_keys WHERE id = $1`, [created.id]);
  expect(JSON.stringify(rows)).not.toContain(created.key.slice(3));
  expect(rows[0].key_hash).toBe(hashApiKey(created.key));

  expect(await h.domain.billing.authenticate(hashApiKey(created.key))).toEqual({
    key_id: created.id,
    account_id: acc.id,
    models: ['gpt-test'],
    rate_limit_rpm: 60,
    max_concurrency: 2,
    tier: 'paid',
  });
  expect(await h.domain.billing.authenticate(hashApiKey('sk-unknown'))).toBeNull();
  expect(await h.domain.billing.authenticate('not a hash')).toBeNull();
  await expect(h.domain.billing.createKey(acc.id, { rate_limit_rpm: -1 } as never)).rejects.toMatchObject({ status: 400 });
});

test('an account is paid unless made free; its keys carry the tier, which the operator can change', async () => {
  const free = await h.domain.billing.createAccount('free-tier', 0, 'free');
  const key = await h.domain.billing.createKey(free.id, {});
  expect(await h.domain.billing.authenticate(hashApiKey(key.key))).toMatchObject({ account_id: free.id, tier: 'free' });

  expect(await h.domain.billing.setTier(free.id, 'paid')).toEqual({ id: free.id, tier: 'paid' });
  expect(await h.domain.billing.authenticate(hashApiKey(key.key))).toMatchObject({ tier: 'paid' });
  const [row] = await h.ds.query(`SELECT tier FROM billing.accounts WHERE id = $1`, [free.id]);
  expect(row.tier).toBe('paid');

  await expect(h.domain.billing.setTier(free.id, 'gold' as never)).rejects.toMatchObject({ status: 400, param: 'tier' });
  await expect(h.domain.billing.createAccount('bad-tier', 0, 'gold' as never)).rejects.toMatchObject({ status: 400, param: 'tier' });
  await expect(h.domain.billing.setTier('00000000-0000-4000-8000-000000000000', 'free')).rejects.toMatchObject({ status: 404 });

  const user = await h.domain.billing.registerUser(`tier-${Date.now()}@example.com`, 'a long password', 0, 'free');
  const [owned] = await h.ds.query(`SELECT tier FROM billing.accounts WHERE id = $1`, [user.account_id]);
  expect(owned.tier).toBe('free');
});

test('a revoked key no longer authenticates and the key-stale event is published with its hash', async () => {
  const revoked: KeyStale[] = [];
  await h.bus.subscribe(TOPICS.keyStale, 'edge-test', async (p) => void revoked.push(p as KeyStale));
  const acc = await h.domain.billing.createAccount('revoke', 0);
  const created = await h.domain.billing.createKey(acc.id, {});
  const hash = hashApiKey(created.key);
  expect(await h.domain.billing.authenticate(hash)).not.toBeNull();

  await h.domain.billing.revokeKey(created.id);
  expect(await h.domain.billing.authenticate(hash)).toBeNull();
  await waitFor('key.revoked', () => revoked.length === 1);
  expect(revoked[0]).toEqual({ event_id: expect.any(String), key_id: created.id, key_hash: hash });

  await h.domain.billing.revokeKey(created.id); // again: fine, and edges hear it again
  expect(await h.domain.billing.authenticate(hash)).toBeNull();
  await expect(h.domain.billing.revokeKey('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ status: 404 });
});

test("an active key's settings change (absent: kept, null: cleared) and the key-stale event is published with its hash", async () => {
  const stale: KeyStale[] = [];
  await h.bus.subscribe(TOPICS.keyStale, 'edge-update-test', async (p) => void stale.push(p as KeyStale));
  const acc = await h.domain.billing.createAccount('update', 0);
  const created = await h.domain.billing.createKey(acc.id, { name: 'ci', rate_limit_rpm: 1, max_concurrency: 1 });
  const hash = hashApiKey(created.key);

  const view = await h.domain.billing.updateKey(created.id, { rate_limit_rpm: 600, models: ['gpt-test'] });
  expect(view).toEqual({
    id: created.id,
    account_id: acc.id,
    name: 'ci',
    prefix: expect.stringMatching(/^sk-/),
    models: ['gpt-test'],
    rate_limit_rpm: 600,
    max_concurrency: 1,
    created_at: expect.any(String),
  });
  expect(created.key.startsWith(view.prefix.replace('…', ''))).toBe(true);
  expect(JSON.stringify(view)).not.toContain(created.key.slice(3));
  expect(await h.domain.billing.authenticate(hash)).toMatchObject({ models: ['gpt-test'], rate_limit_rpm: 600, max_concurrency: 1 });
  await waitFor('key-stale event', () => stale.length === 1);
  expect(stale[0]).toEqual({ event_id: expect.any(String), key_id: created.id, key_hash: hash });

  expect(await h.domain.billing.updateKey(created.id, { name: null, models: null, max_concurrency: null })).toMatchObject({
    name: null,
    models: null,
    rate_limit_rpm: 600,
    max_concurrency: null,
  });
  expect(await h.domain.billing.authenticate(hash)).toMatchObject({ models: [], rate_limit_rpm: 600, max_concurrency: null });
  await waitFor('second key-stale event', () => stale.length === 2);

  // Validated as on create; nothing to change is a 400; unknown and revoked keys are 404 and publish nothing.
  await expect(h.domain.billing.updateKey(created.id, { models: [] })).rejects.toMatchObject({ status: 400, param: 'models' });
  await expect(h.domain.billing.updateKey(created.id, { rate_limit_rpm: 0 })).rejects.toMatchObject({
    status: 400,
    param: 'rate_limit_rpm',
  });
  await expect(h.domain.billing.updateKey(created.id, {})).rejects.toMatchObject({ status: 400 });
  await expect(h.domain.billing.updateKey(created.id, { rpm: 5 } as never)).rejects.toMatchObject({ status: 400 });
  await expect(h.domain.billing.updateKey('00000000-0000-4000-8000-000000000000', { rate_limit_rpm: 5 })).rejects.toMatchObject({
    status: 404,
  });
  await expect(h.domain.billing.updateKey('nope', { rate_limit_rpm: 5 })).rejects.toMatchObject({ status: 404 });
  await h.domain.billing.revokeKey(created.id);
  await waitFor('key-stale event of the revocation', () => stale.length === 3);
  await expect(h.domain.billing.updateKey(created.id, { rate_limit_rpm: 5 })).rejects.toMatchObject({ status: 404 });
  expect(await h.domain.billing.authenticate(hash)).toBeNull();
  const [row] = await h.ds.query(`SELECT rate_limit_rpm FROM billing.api_keys WHERE id = $1`, [created.id]);
  expect(row.rate_limit_rpm).toBe(600);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(stale).toHaveLength(3);
});

test('bootstrap is idempotent: one account, one key, credit only on first creation, across restarts', async () => {
  const key = 'sk-bootstrapTESTkey0123456789abcdefghijklmnopqrstuv';
  const results = await Promise.all([h.domain.ensureBootstrap(key, 100_000_000), h.domain.ensureBootstrap(key, 100_000_000)]);
  expect(results.filter((r) => r.created_key)).toHaveLength(1);
  const { account_id, key_id } = results[0];
  expect(results[1]).toMatchObject({ account_id, key_id });

  await h.reservations.admit({
    principal: { key_id, account_id, models: [], rate_limit_rpm: null, max_concurrency: null, tier: 'paid' },
    request_id: 'r-boot',
    amount_micros: 1,
  });
  const again = await h.domain.ensureBootstrap(key, 500_000_000); // a "restart" with another credit setting
  expect(again).toEqual({ account_id, key_id, created_account: false, created_key: false });
  expect(await h.domain.billing.getAccount(account_id)).toMatchObject({ name: 'bootstrap', balance_usd: 100 });
  expect(await h.domain.billing.authenticate(hashApiKey(key))).toMatchObject({ key_id, account_id, models: [] });
  const [{ n }] = await h.ds.query(`SELECT count(*)::int AS n FROM billing.accounts WHERE name = 'bootstrap'`);
  expect(n).toBe(1);
});

test('an account holds at most MAX_ACTIVE_KEYS active keys (409 past it, room again after a revocation); its list shows every active key and only the newest revoked', async () => {
  const acc = await h.domain.billing.createAccount('many-keys', 0);
  // All but one of the bound, written directly (a create per key would take the test seconds); 60 of them revoked.
  await h.ds.query(
    `INSERT INTO billing.api_keys (id, account_id, name, key_hash, display_prefix, created_at, revoked_at)
     SELECT gen_random_uuid(), $1::uuid, 'k' || i, md5($1::text || i) || md5(i::text || $1::text), 'sk-x', now() - i * interval '1 minute',
       CASE WHEN i <= 60 THEN now() - i * interval '1 second' END
     FROM generate_series(1, $2::int + 60) AS i`,
    [acc.id, MAX_ACTIVE_KEYS - 1],
  );
  const last = await h.domain.billing.createKey(acc.id, {});
  await expect(h.domain.billing.createKey(acc.id, {})).rejects.toMatchObject({ status: 409, code: 'conflict' });
  // Creates side by side cannot pass the bound together.
  await h.domain.billing.revokeKey(last.id);
  const racing = await Promise.allSettled(Array.from({ length: 5 }, () => h.domain.billing.createKey(acc.id, {})));
  expect(racing.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  const [active] = await h.ds.query(`SELECT count(*)::int AS n FROM billing.api_keys WHERE account_id = $1 AND revoked_at IS NULL`, [
    acc.id,
  ]);
  expect(active.n).toBe(MAX_ACTIVE_KEYS);

  const listed = await h.domain.billing.listKeys(acc.id);
  expect(listed.filter((k) => k.revoked_at === null)).toHaveLength(MAX_ACTIVE_KEYS);
  const revoked = listed.filter((k) => k.revoked_at !== null);
  expect(revoked).toHaveLength(REVOKED_KEYS_LISTED);
  // The newest revoked: the key revoked above, then k1, k2, … (revoked a second apart, k1 last).
  expect(revoked.some((k) => k.id === last.id)).toBe(true);
  expect(revoked.map((k) => k.name).filter((n) => n !== null)).toEqual(
    Array.from({ length: REVOKED_KEYS_LISTED - 1 }, (_, i) => `k${i + 1}`),
  );
  // Newest first.
  const created = listed.map((k) => k.created_at);
  expect([...created].sort().reverse()).toEqual(created);
});
