/**
 * Every service imports @unigate/platform; the AWS SDK (~20 MiB of RSS) is loaded only by a process
 * that makes an S3 store. Checked in a fresh Node process on the built package, as a service loads it.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '@unigate/testing';

const PLATFORM = join(ROOT, 'packages', 'platform', 'dist', 'index.js');

const LOADED = `
const platform = require(process.argv[1]);
const aws = () => Object.keys(require.cache).filter((m) => m.includes('/@aws-sdk/')).length;
const before = aws();
new platform.S3ObjectStore({ bucket: 'results', region: 'us-east-1', endpoint: 'http://127.0.0.1:9' }).close();
process.stdout.write(JSON.stringify({ before, after: aws() }));
`;

test('importing the platform package loads no AWS SDK module; making an S3 store does, and prints nothing', () => {
  const run = spawnSync(process.execPath, ['-e', LOADED, PLATFORM], { encoding: 'utf8' });
  const { before, after } = JSON.parse(run.stdout) as { before: number; after: number };
  expect(before).toBe(0);
  expect(after).toBeGreaterThan(0);
  // On Node 20 the SDK's support warning would be here (s3-object-store.ts).
  expect(run.stderr).toBe('');
}, 30_000);
