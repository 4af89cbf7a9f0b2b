/**
 * scripts/npm-ci.sh decides between failing and falling back to `npm install --no-save`. Driven here
 * with a stand-in `npm` on PATH that replays a given `npm ci` outcome and records what it was asked.
 */
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, run } from './support';

const FOREIGN_ONLY = [
  'npm error code EUSAGE',
  'npm error `npm ci` can only install packages when your package.json and package-lock.json are in sync.',
  'npm error Missing: @swc/core-darwin-arm64@ from lock file',
  'npm error Missing: @turbo/windows-64@ from lock file',
].join('\n');

async function runWith(ciExit: number, ciOutput: string) {
  const dir = mkdtempSync(join(tmpdir(), 'npm-ci-test-'));
  const calls = join(dir, 'calls');
  writeFileSync(join(dir, 'ci-output'), ciOutput);
  writeFileSync(
    join(dir, 'npm'),
    `#!/usr/bin/env bash\necho "$*" >> "${calls}"\nif [ "$1" = ci ]; then cat "${join(dir, 'ci-output')}" >&2; exit ${ciExit}; fi\nexit 0\n`,
  );
  chmodSync(join(dir, 'npm'), 0o755);
  const result = await run('bash', [join(ROOT, 'scripts', 'npm-ci.sh')], { PATH: `${dir}:${process.env.PATH}` });
  return { ...result, calls: readFileSync(calls, 'utf8').trim().split('\n') };
}

describe('scripts/npm-ci.sh', () => {
  it('stops after a successful npm ci', async () => {
    const r = await runWith(0, 'added 400 packages');
    expect(r.code).toBe(0);
    expect(r.calls).toEqual(['ci --no-audit --no-fund']);
  });

  it('installs from the lock when only versionless optional packages of other platforms are missing', async () => {
    const r = await runWith(1, FOREIGN_ONLY);
    expect(r.code).toBe(0);
    expect(r.calls).toEqual(['ci --no-audit --no-fund', 'install --no-save --no-audit --no-fund']);
  });

  it.each([
    ['a dependency missing from the lock', `${FOREIGN_ONLY}\nnpm error Missing: left-pad@1.3.0 from lock file`],
    ['a scoped dependency missing from the lock', `${FOREIGN_ONLY}\nnpm error Missing: @scope/pkg@2.0.0 from lock file`],
    ['a version mismatch', "npm error code EUSAGE\nnpm error Invalid: lock file's zod@4.0.0 does not satisfy zod@4.6.7"],
    ['any other failure', 'npm error code E404\nnpm error 404 Not Found'],
  ])('fails on %s', async (_label, output) => {
    const r = await runWith(1, output);
    expect(r.code).not.toBe(0);
    expect(r.calls).toEqual(['ci --no-audit --no-fund']);
  });
});
