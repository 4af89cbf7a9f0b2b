/**
 * The README's first command is plain `npm ci`. It fails on a fresh clone when package-lock.json
 * lacks an entry for any optional per-platform binary a locked package declares (npm writes none
 * when the registry does not serve that platform's package at the pinned version). Two checks keep
 * it so: a static walk of the lock, and npm's own verdict (`npm ci --dry-run`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, run } from './support';

interface LockPackage {
  version?: string;
  optionalDependencies?: Record<string, string>;
  hasInstallScript?: boolean;
}

const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockPackage> };
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };

/** Where npm would look for `dep` from the package at `path`: nested first, then every parent. */
function resolveFrom(path: string, dep: string): string | undefined {
  let base = path;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${dep}`;
    if (lock.packages[candidate]) return candidate;
    const cut = base.lastIndexOf('/node_modules/');
    if (base === '') return undefined;
    base = cut < 0 ? '' : base.slice(0, cut);
  }
}

describe('package-lock.json installs with plain npm ci', () => {
  it('has an entry for every optional dependency of every locked package', () => {
    const missing: string[] = [];
    for (const [path, pkg] of Object.entries(lock.packages)) {
      for (const dep of Object.keys(pkg.optionalDependencies ?? {})) {
        if (!resolveFrom(path, dep)) missing.push(`${path || '(root)'} → ${dep}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('decides every dependency install script in allowScripts', () => {
    const decided = new Set(Object.keys(manifest.allowScripts ?? {}).map((k) => k.replace(/(.)@.*$/, '$1')));
    const undecided = Object.entries(lock.packages)
      .filter(([path, pkg]) => pkg.hasInstallScript && path.includes('node_modules/'))
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length))
      .filter((name) => !decided.has(name));
    expect(undecided).toEqual([]);
  });

  it('npm ci --dry-run accepts the lock', async () => {
    const result = await run('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund']);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/Missing: |Invalid: |EUSAGE/);
    expect(result.code).toBe(0);
  }, 120_000);
});
