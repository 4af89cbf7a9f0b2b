/**
 * The embedded store's wire server (embedded-postgres-worker.ts) with the ordinary pg driver: many
 * connections' statements never mix, prepared statements belong to their connection (same name on
 * two connections, and again after a reconnect), a connection that vanishes mid-transaction is
 * rolled back, and transactions still run one at a time.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '@unigate/platform/database';

let dir: string;
let pg: EmbeddedPostgres;
const clients: Client[] = [];

async function connect(): Promise<Client> {
  const c = new Client({ connectionString: pg.url });
  await c.connect();
  clients.push(c);
  return c;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'unigate-wire-'));
  pg = await startEmbeddedPostgres(dir);
  const c = await connect();
  await c.query('CREATE TABLE wire_t (id int PRIMARY KEY, v int NOT NULL)');
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  await pg.close();
  await rm(dir, { recursive: true, force: true });
});

test('eight connections firing parameterised statements at once each get their own answers', async () => {
  const conns = await Promise.all(Array.from({ length: 8 }, connect));
  const wrong: string[] = [];
  await Promise.all(
    conns.map(async (c, ci) => {
      for (let i = 0; i < 60; i++) {
        const row = (await c.query(`SELECT $1::int * 2 AS x, $2::text AS tag, ${ci} AS conn`, [i, `c${ci}`])).rows[0];
        if (row.x !== i * 2 || row.tag !== `c${ci}` || row.conn !== ci) wrong.push(JSON.stringify({ ci, i, row }));
      }
    }),
  );
  expect(wrong).toEqual([]);
});

test('prepared statements are per connection: one name, two texts, and again after a reconnect', async () => {
  const [a, b] = [await connect(), await connect()];
  const run = (c: Client, text: string) => c.query({ name: 'same_name', text, values: [21] }).then((r) => r.rows[0].x);
  for (let i = 0; i < 3; i++) {
    expect(await run(a, 'SELECT $1::int * 2 AS x')).toBe(42);
    expect(await run(b, 'SELECT $1::int + 1 AS x')).toBe(22);
  }
  await a.end();
  const again = await connect();
  expect(await run(again, 'SELECT $1::int * 3 AS x')).toBe(63);
  expect(await run(b, 'SELECT $1::int + 1 AS x')).toBe(22);
  // What a closed connection prepared is gone from the shared backend (its cleanup runs once the socket closed).
  const prepared = async () => (await again.query(`SELECT count(*)::int AS n FROM pg_prepared_statements`)).rows[0].n as number;
  const deadline = Date.now() + 5_000;
  while ((await prepared()) !== 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  expect(await prepared()).toBe(2);
});

test('a connection that vanishes mid-transaction is rolled back, and the others carry on', async () => {
  const quitter = await connect();
  const other = await connect();
  await quitter.query('BEGIN');
  await quitter.query('INSERT INTO wire_t VALUES ($1, $2)', [1, 1]);
  const waiting = other.query('SELECT count(*)::int AS n FROM wire_t'); // waits: another transaction is open
  await quitter.end(); // no COMMIT
  expect((await waiting).rows[0].n).toBe(0);
  await other.query('INSERT INTO wire_t VALUES ($1, $2)', [1, 2]);
  expect((await other.query('SELECT v FROM wire_t WHERE id = 1')).rows[0].v).toBe(2);
});

test('transactions on different connections run one at a time', async () => {
  const conns = await Promise.all(Array.from({ length: 6 }, connect));
  await conns[0].query('INSERT INTO wire_t VALUES (2, 0)');
  await Promise.all(
    conns.map(async (c) => {
      // Each connection runs its read-then-write transactions one after the other; the connections race.
      for (let i = 0; i < 5; i++) {
        await c.query('BEGIN');
        const { v } = (await c.query('SELECT v FROM wire_t WHERE id = 2')).rows[0];
        await new Promise((r) => setImmediate(r));
        await c.query('UPDATE wire_t SET v = $1 WHERE id = 2', [v + 1]);
        await c.query('COMMIT');
      }
    }),
  );
  expect((await conns[0].query('SELECT v FROM wire_t WHERE id = 2')).rows[0].v).toBe(30);
});
