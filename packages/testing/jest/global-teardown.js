/** Jest global teardown: stop the Kafka test broker started by global-setup.js. */
'use strict';

module.exports = async function globalTeardown() {
  const broker = globalThis.__UNIGATE_KAFKA_BROKER__;
  if (!broker) return;
  globalThis.__UNIGATE_KAFKA_BROKER__ = undefined;
  await broker.stop();
};
