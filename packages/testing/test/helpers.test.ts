/**
 * The helpers against the real local infrastructure: Postgres, Redis, and the Kafka test broker that
 * global setup started for this run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';
import {
  createTestDatabase,
  freePort,
  kafkaBrokers,
  portSlice,
  redisUrl,
  startKafkaTestBroker,
  startNodeProcess,
  tcpAccepts,
  uniqueName,
  waitForHttp,
} from '@unigate/testing';

const dir = mkdtempSync(join(tmpdir(), 'unigate-testing-'));
/** A tiny app: serves /health/ready with 200 once up, logs a line, exits cleanly on SIGTERM. */
const serverScript = join(dir, 'server.js');
writeFileSync(
  serverScript,
  `const http = require('node:http');
   const server = http.createServer((req, res) => { res.statusCode = req.url === '/health/ready' ? 200 : 404; res.end(process.env.GREETING || ''); });
   server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening on ' + process.env.PORT + ' kafka=' + process.env.KAFKA_BROKERS));
   process.on('SIGTERM', () => { console.log('bye'); server.close(() => process.exit(0)); });`,
);

/** Running and not a zombie (orphans may be reaped late when PID 1 is not an init). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function eventually(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

describe('createTestDatabase', () => {
  it('creates an empty, usable database and drops it even with connections open', async () => {
    const db = await createTestDatabase('helpers');
    expect(db.name).toMatch(/^helpers_/);
    const client = new Client({ connectionString: db.url });
    await client.connect();
    client.on('error', () => undefined); // the forced drop terminates this session
    await client.query('CREATE TABLE t (id int)');
    await client.query('INSERT INTO t VALUES (1), (2)');
    expect((await client.query('SELECT count(*)::int AS n FROM t')).rows[0].n).toBe(2);

    await db.drop();
    const admin = new Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
    await admin.connect();
    const left = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [db.name]);
    await admin.end();
    expect(left.rowCount).toBe(0);
    await client.end().catch(() => undefined);
  });

  it('gives concurrent callers distinct databases', async () => {
    const dbs = await Promise.all([1, 2, 3, 4].map(() => createTestDatabase()));
    expect(new Set(dbs.map((d) => d.name)).size).toBe(4);
    await Promise.all(dbs.map((d) => d.drop()));
  });
});

describe('redisUrl', () => {
  it('points at a Redis that answers', async () => {
    const redis = new Redis(redisUrl(), { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    const key = uniqueName('helpers');
    await redis.set(key, 'v', 'EX', 30);
    expect(await redis.get(key)).toBe('v');
    await redis.del(key);
    await redis.quit();
  });
});

describe('kafkaBrokers', () => {
  it('is the broker global setup started, and it speaks the Kafka protocol', async () => {
    const brokers = kafkaBrokers();
    expect(brokers).toHaveLength(3);
    expect(brokers.join(',')).toBe(process.env.KAFKA_BROKERS);

    const kafka = new Kafka({ clientId: 'helpers-test', brokers, logLevel: logLevel.NOTHING });
    const topic = uniqueName('helpers_topic');
    const producer = kafka.producer({ allowAutoTopicCreation: true });
    const consumer = kafka.consumer({ groupId: uniqueName('helpers_group'), maxWaitTimeInMs: 100, sessionTimeout: 6000 });
    await producer.connect();
    await consumer.connect();
    // The mock creates topics on the first metadata request.
    await producer.send({ topic, messages: [{ key: 'k', value: 'warm-up' }] });
    await consumer.subscribe({ topic, fromBeginning: true });
    const seen: string[] = [];
    await consumer.run({ eachMessage: async ({ message }) => void seen.push(String(message.value)) });
    await producer.send({ topic, messages: [{ key: 'k', value: 'hello' }] });
    await eventually(() => seen.includes('hello'), 20_000);
    await consumer.disconnect();
    await producer.disconnect();
    expect(seen).toEqual(['warm-up', 'hello']);
  });
});

describe('startKafkaTestBroker', () => {
  it('starts a separate 3-broker mock cluster and stops it completely', async () => {
    const broker = await startKafkaTestBroker();
    expect(broker.brokers).toHaveLength(3);
    expect(broker.brokers.join(',')).not.toBe(process.env.KAFKA_BROKERS);
    for (const address of broker.brokers) {
      const [host, port] = address.split(':');
      expect(await tcpAccepts(host, Number(port))).toBe(true);
    }
    await broker.stop();
    expect(alive(broker.pid)).toBe(false);
    const [host, port] = broker.brokers[0].split(':');
    expect(await tcpAccepts(host, Number(port))).toBe(false);
  });
});

describe('freePort and waitForHttp', () => {
  it('hands out a port that can be bound', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    const server = createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
  });

  it("draws from this jest worker's own slice of the pool, disjoint from every other worker's", async () => {
    const slices = ['1', '2', '3', '4', '5', '6', '7', '8'].map(portSlice);
    for (const [i, a] of slices.entries()) {
      expect(a.low).toBeGreaterThanOrEqual(20_000);
      expect(a.high).toBeLessThanOrEqual(32_000);
      expect(a.high - a.low).toBe(1_500);
      for (const b of slices.slice(i + 1)) expect(a.high <= b.low || b.high <= a.low).toBe(true);
    }
    // Outside jest (the bench), and a ninth worker, share slice 0 (worker 8's).
    expect(portSlice(undefined)).toEqual(portSlice('8'));
    expect(portSlice('9')).toEqual(portSlice('1'));
    const mine = portSlice(process.env.JEST_WORKER_ID);
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      expect(port).toBeGreaterThanOrEqual(mine.low);
      expect(port).toBeLessThan(mine.high);
    }
  });

  it('rejects with the last failure when nothing answers in time', async () => {
    const port = await freePort();
    await expect(waitForHttp(`http://127.0.0.1:${port}/health/ready`, 500)).rejects.toThrow(/did not answer 200 within 500 ms/);
  });
});

describe('startNodeProcess', () => {
  it('starts a script with env, waits until ready, captures output and stops it', async () => {
    const port = await freePort();
    const proc = await startNodeProcess({
      name: 'tiny',
      script: serverScript,
      env: { PORT: String(port), GREETING: 'hi' },
      readyUrl: `http://127.0.0.1:${port}/health/ready`,
      timeoutMs: 10_000,
    });
    expect(alive(proc.pid)).toBe(true);
    const body = await (await fetch(`http://127.0.0.1:${port}/`, { headers: { connection: 'close' } })).text();
    expect(body).toBe('hi');
    expect(await eventually(() => proc.logs().includes(`listening on ${port}`), 2000)).toBe(true);
    // The child inherits KAFKA_BROKERS from the jest worker.
    expect(proc.logs()).toContain(`kafka=${process.env.KAFKA_BROKERS}`);
    await proc.stop();
    expect(alive(proc.pid)).toBe(false);
    expect(proc.exited()).toBe('exit code 0');
    expect(proc.logs()).toContain('bye');
  });

  it('fails fast with the output when the process exits before it is ready', async () => {
    const script = join(dir, 'crash.js');
    writeFileSync(script, "console.error('boom: missing DATABASE_URL'); process.exit(3);");
    // The readiness timeout is far beyond the test timeout: only noticing the exit can end this wait.
    await expect(
      startNodeProcess({ name: 'crasher', script, readyUrl: 'http://127.0.0.1:1/health/ready', timeoutMs: 600_000 }),
    ).rejects.toThrow(/crasher[\s\S]*exit code 3[\s\S]*boom: missing DATABASE_URL/);
  });

  it('kills a process that ignores SIGTERM once the grace period is over', async () => {
    const script = join(dir, 'stubborn.js');
    writeFileSync(script, "process.on('SIGTERM', () => console.log('ignoring')); setInterval(() => {}, 1000); console.log('up');");
    const proc = await startNodeProcess({ name: 'stubborn', script, graceMs: 300 });
    await eventually(() => proc.logs().includes('up'), 5000);
    await proc.stop();
    expect(alive(proc.pid)).toBe(false);
    expect(proc.exited()).toBe('signal SIGKILL');
  });

  it('started processes die with their owner', async () => {
    // Run the helper from a separate owner process, then kill that owner with SIGKILL: no cleanup
    // code of the owner runs, so only the watchdog can end the child.
    const owner = join(dir, 'owner.js');
    writeFileSync(
      owner,
      `const { spawn } = require('node:child_process');
       const child = spawn(process.execPath, ['--require', ${JSON.stringify(join(__dirname, '..', 'jest', 'parent-watchdog.js'))}, '-e', 'setInterval(() => {}, 1000)'],
         { env: { ...process.env, UNIGATE_TEST_OWNER_PID: String(process.pid) }, stdio: 'ignore', detached: true });
       console.log(child.pid);
       setInterval(() => {}, 1000);`,
    );
    const ownerProc = spawn(process.execPath, [owner], { stdio: ['ignore', 'pipe', 'inherit'] });
    const childPid = await new Promise<number>((resolve) => ownerProc.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
    expect(alive(childPid)).toBe(true);
    ownerProc.kill('SIGKILL');
    expect(await eventually(() => !alive(childPid), 5000)).toBe(true);
  });
});
