/**
 * Standalone loads none of what only the distributed deployment uses (over 500 modules it never
 * runs): not BullMQ (video comes from `@unigate/video/embedded`), not kafkajs (it loads with the first
 * Kafka bus, not with @unigate/platform), not gRPC with its proto definitions and protobufjs (they are
 * `@unigate/platform/distributed`, which the services' mains and Nest modules import), not ioredis
 * (it loads with the first reservations connection). Checked in a fresh Node process on the built
 * packages, as `npm start` loads them; the same process then loads each the way a distributed service
 * does, so the check is seen to detect them.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '@unigate/testing';

const SCRIPT = `
const loaded = (name) => Object.keys(require.cache).some((m) => m.includes('/node_modules/' + name + '/'));
const [compose, video, platform, reservations] = process.argv.slice(1);
const PACKAGES = ['bullmq', 'kafkajs', '@grpc/grpc-js', 'protobufjs', 'ioredis'];
const which = () => Object.fromEntries(PACKAGES.map((name) => [name, loaded(name)]));
require(compose);
const standalone = which();
require(video);
const { KafkaEventBus } = require(platform);
new KafkaEventBus({ brokers: ['127.0.0.1:1'], clientId: 'loaded-modules', logger: { error() {}, warn() {} } });
require(platform + '/distributed');
require(reservations).connectRedisForReservations('redis://127.0.0.1:1').disconnect();
process.stdout.write(JSON.stringify({ standalone, distributed: which() }));
`;

test('the standalone composition loads neither BullMQ, kafkajs, gRPC nor ioredis; the distributed entry points do', () => {
  const out = execFileSync(
    process.execPath,
    [
      '-e',
      SCRIPT,
      join(ROOT, 'apps', 'standalone', 'dist', 'compose.js'),
      join(ROOT, 'apps', 'video', 'dist', 'index.js'),
      join(ROOT, 'packages', 'platform'),
      join(ROOT, 'apps', 'billing', 'dist', 'reservations', 'index.js'),
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  const none = { bullmq: false, kafkajs: false, '@grpc/grpc-js': false, protobufjs: false, ioredis: false };
  const all = { bullmq: true, kafkajs: true, '@grpc/grpc-js': true, protobufjs: true, ioredis: true };
  expect(JSON.parse(out)).toEqual({ standalone: none, distributed: all });
});
