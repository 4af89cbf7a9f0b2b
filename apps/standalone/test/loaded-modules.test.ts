/**
 * Standalone loads neither BullMQ nor kafkajs (334 modules it never uses): video comes from
 * `@unigate/video/embedded`, and kafkajs loads with the first Kafka bus, not with @unigate/platform.
 * Checked in a fresh Node process on the built packages, as `npm start` loads them; the same process
 * then loads each through the way a distributed service does, so the check is seen to detect them.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '@unigate/testing';

const SCRIPT = `
const loaded = (name) => Object.keys(require.cache).some((m) => m.includes('/node_modules/' + name + '/'));
const [compose, video, platform] = process.argv.slice(1);
require(compose);
const standalone = { bullmq: loaded('bullmq'), kafkajs: loaded('kafkajs') };
require(video);
const { KafkaEventBus } = require(platform);
new KafkaEventBus({ brokers: ['127.0.0.1:1'], clientId: 'loaded-modules', logger: { error() {}, warn() {} } });
process.stdout.write(JSON.stringify({ standalone, distributed: { bullmq: loaded('bullmq'), kafkajs: loaded('kafkajs') } }));
`;

test('the standalone composition loads neither BullMQ nor kafkajs; the video index and a Kafka bus do', () => {
  const out = execFileSync(
    process.execPath,
    [
      '-e',
      SCRIPT,
      join(ROOT, 'apps', 'standalone', 'dist', 'compose.js'),
      join(ROOT, 'apps', 'video', 'dist', 'index.js'),
      join(ROOT, 'packages', 'platform', 'dist', 'index.js'),
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  expect(JSON.parse(out)).toEqual({ standalone: { bullmq: false, kafkajs: false }, distributed: { bullmq: true, kafkajs: true } });
});
