/** Dashboard users against real Postgres: sign-up, password checks, an account's key list. */
import { startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

test('sign-up makes a user with its own funded account; the password is kept only as an argon2id hash', async () => {
  const email = `Ann.${Date.now()}@Example.com`;
  const user = await h.domain.billing.registerUser(email, 'a long password', 2_000_000);
  expect(user).toEqual({ id: expect.any(String), email: email.toLowerCase(), account_id: expect.any(String) });
  expect(await h.domain.billing.getAccount(user.account_id)).toMatchObject({ balance_usd: 2 });
  const [row] = await h.ds.query(`SELECT password_hash FROM billing.users WHERE id = $1`, [user.id]);
  expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

  expect(await h.domain.billing.verifyUser(email.toUpperCase(), 'a long password')).toEqual(user);
  expect(await h.domain.billing.verifyUser(email, 'a wrong password')).toBeNull();
  expect(await h.domain.billing.verifyUser('nobody@example.com', 'a long password')).toBeNull();
});

test('one user per email, whatever its case, even when two sign-ups race', async () => {
  const email = `race.${Date.now()}@example.com`;
  const results = await Promise.allSettled([
    h.domain.billing.registerUser(email, 'password one', 0),
    h.domain.billing.registerUser(email.toUpperCase(), 'password two', 0),
  ]);
  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { status: 409 } });
  await expect(h.domain.billing.registerUser(email, 'password three', 0)).rejects.toMatchObject({ status: 409 });
  const [{ n }] = await h.ds.query(`SELECT count(*)::int AS n FROM billing.accounts WHERE name = $1`, [email]);
  expect(n).toBe(1);
});

test('bad emails and passwords are refused with 400', async () => {
  await expect(h.domain.billing.registerUser('not-an-email', 'a long password', 0)).rejects.toMatchObject({ status: 400 });
  await expect(h.domain.billing.registerUser('short@example.com', 'short', 0)).rejects.toMatchObject({ status: 400 });
  // Control characters (NUL, which Postgres text cannot hold, among them): a 400, not a failed insert.
  for (const email of ['a\u0000b@example.com', 'a@exa\u0007mple.com'])
    await expect(h.domain.billing.registerUser(email, 'a long password', 0)).rejects.toMatchObject({ status: 400, param: 'email' });
  // And a log-in with one is a wrong address, not a failed query.
  expect(await h.domain.billing.verifyUser('a\u0000b@example.com', 'a long password')).toBeNull();
});

test("a password's length is counted in characters as people count them (an emoji is one), 8 to 200", async () => {
  const stamp = Date.now();
  await expect(h.domain.billing.registerUser(`e4-${stamp}@example.com`, '😀'.repeat(4), 0)).rejects.toMatchObject({
    status: 400,
    param: 'password',
  });
  await expect(h.domain.billing.registerUser(`e201-${stamp}@example.com`, '😀'.repeat(201), 0)).rejects.toMatchObject({
    status: 400,
    param: 'password',
  });
  // 150 characters, 300 UTF-16 units: accepted, and the same password logs in.
  const email = `e150-${stamp}@example.com`;
  const user = await h.domain.billing.registerUser(email, '😀'.repeat(150), 0);
  expect(await h.domain.billing.verifyUser(email, '😀'.repeat(150))).toEqual(user);
});

test('an account lists its keys newest first, without secrets, revoked ones marked', async () => {
  const acc = await h.domain.billing.createAccount('key list', 0);
  const first = await h.domain.billing.createKey(acc.id, { name: 'first' });
  const second = await h.domain.billing.createKey(acc.id, {});
  await h.domain.billing.revokeKey(first.id);
  const keys = await h.domain.billing.listKeys(acc.id);
  expect(keys.map((k) => k.id)).toEqual([second.id, first.id]);
  expect(keys[0]).toEqual({
    id: second.id,
    name: null,
    prefix: `${second.key.slice(0, 7)}…`,
    created_at: expect.any(String),
    revoked_at: null,
  });
  expect(keys[1].revoked_at).toEqual(expect.any(String));
  expect(JSON.stringify(keys)).not.toContain(second.key.slice(7));
});
