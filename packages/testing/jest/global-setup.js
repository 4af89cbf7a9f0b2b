/**
 * Jest global setup for the whole monorepo (root jest.config.js): Postgres and Redis answer (started
 * with the INFRA.md commands when they do not), and one Kafka wire-protocol test broker (kcat's
 * librdkafka mock cluster) runs for the whole jest run. KAFKA_BROKERS is set here, in the jest parent
 * process, before workers start, so every worker and every process a test spawns inherits it.
 */
'use strict';
const { loadInfra } = require('./load-ts');

module.exports = async function globalSetup() {
  const infra = loadInfra();
  const started = Date.now();
  await Promise.all([infra.ensurePostgres(), infra.ensureRedis()]);
  const broker = await infra.startKafkaTestBroker({ ownerPid: process.pid });
  // Read by global-teardown.js (same process). The exit hook covers runs that never reach teardown.
  globalThis.__UNIGATE_KAFKA_BROKER__ = broker;
  process.once('exit', () => broker.killSync());
  process.env.KAFKA_BROKERS = broker.brokers.join(',');
  // Without it a consumed event would wait up to the services' default fetch wait (1 s) in every test.
  process.env.KAFKA_FETCH_MAX_WAIT_MS ??= String(infra.MOCK_KAFKA_FETCH_MAX_WAIT_MS);
  if (process.env.UNIGATE_TEST_QUIET !== '1') {
    process.stderr.write(
      `\n[unigate/testing] postgres 127.0.0.1:5432, redis 127.0.0.1:6379, KAFKA_BROKERS=${process.env.KAFKA_BROKERS} (${Date.now() - started} ms)\n`,
    );
  }
};
