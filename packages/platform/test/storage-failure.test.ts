/**
 * storageFailure against the errors a real Postgres sends: a statement its statement_timeout cut
 * (57014, the way a database overwhelmed or stuck shows itself) is one to retry; a constraint the
 * statement broke is not.
 */
import { Client } from 'pg';
import { storageFailure } from '../src/storage/storage-failure';

describe('storageFailure on real Postgres errors', () => {
  const client = new Client({ connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
  beforeAll(() => client.connect());
  afterAll(() => client.end());

  it('a statement cut by statement_timeout is a 503 to retry; a broken constraint is not', async () => {
    await client.query('SET statement_timeout = 50');
    const timedOut = await client.query('SELECT pg_sleep(2)').catch((e: unknown) => e);
    expect(storageFailure(timedOut)).toMatchObject({ status: 503, retryable: true });
    await client.query('SET statement_timeout = 0');
    const broken = await client.query('SELECT 1 / 0').catch((e: unknown) => e);
    expect((broken as { code?: string }).code).toBe('22012');
    expect(storageFailure(broken)).toBeUndefined();
  });
});
