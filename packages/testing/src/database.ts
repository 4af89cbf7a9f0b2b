import { Client } from 'pg';
import { POSTGRES_ADMIN_URL } from './env';
import { uniqueName } from './names';

export interface TestDatabase {
  /** Connection URL for DATABASE_URL / TypeORM / pg. */
  url: string;
  name: string;
  /** Drops the database, closing whatever connections are still open (WITH (FORCE)). */
  drop(): Promise<void>;
}

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates an empty database with a unique name on the local Postgres (127.0.0.1:5432, user postgres).
 * One per test file (or per test) keeps parallel workers and concurrent runs apart.
 */
export async function createTestDatabase(prefix = 'test'): Promise<TestDatabase> {
  const name = uniqueName(prefix);
  await admin(async (client) => {
    // CREATE DATABASE copies template1 and fails while another session is connected to it (55006);
    // concurrent creates from parallel workers can hit that briefly, so retry a few times.
    for (let attempt = 1; ; attempt += 1) {
      try {
        await client.query(`CREATE DATABASE "${name}"`);
        return;
      } catch (err) {
        if ((err as { code?: string }).code !== '55006' || attempt >= 10) throw err;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  });
  let dropped = false;
  return {
    name,
    url: `postgres://postgres@127.0.0.1:5432/${name}`,
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await admin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}
