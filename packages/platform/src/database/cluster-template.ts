/**
 * A new embedded data directory as a copy of initdb's output instead of a run of initdb: PGlite's
 * initdb takes 6–7 s of WASM on 2 cores (and ~500 MB while it runs), a copy of its result 0.2–0.8 s
 * (made by the store's worker thread: embedded-postgres-worker.ts). The template is made once per
 * PGlite version, by the first start that needs it, in a cache beside the installed packages
 * (`node_modules/.cache/unigate/`); settings (postgresql.conf additions) are applied at every start,
 * so one template serves every configuration.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** The file whose presence marks a complete cluster: copied last, so a copy cut short is redone. */
export const CLUSTER_MARKER = 'PG_VERSION';
/** Made before a copy starts, deleted after its marker: a directory with it and no marker is a copy cut short. */
export const CLUSTER_COPYING = '.unigate-copying';

/** Where the template of the installed PGlite lives: the npm cache convention, node_modules/.cache. */
export function defaultTemplateDir(pgliteEntry: string): string {
  let root = dirname(pgliteEntry);
  while (!existsSync(join(root, 'package.json'))) {
    const up = dirname(root);
    if (up === root) throw new Error(`no package.json above ${pgliteEntry}`);
    root = up;
  }
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  // <node_modules>/@electric-sql/pglite → <node_modules>/.cache/unigate/pglite-<version>
  return join(root, '..', '..', '.cache', 'unigate', `pglite-${version}`);
}

/**
 * Makes `template` with `initdb` unless it is there already; resolves once it is. A template appears
 * whole or not at all (made aside, then renamed), so processes starting together may each make one:
 * the first rename wins and the others are dropped.
 */
export async function ensureTemplate(template: string, initdb: (into: string) => Promise<void>): Promise<void> {
  const marker = join(template, CLUSTER_MARKER);
  if (existsSync(marker)) return;
  // Unique per call: two starts in one process may be making one at the same moment.
  const aside = `${template}.${randomUUID()}`;
  try {
    await mkdir(aside, { recursive: true });
    await initdb(aside);
    await rename(aside, template).catch((err: NodeJS.ErrnoException) => {
      // Another process's template got there first: use it.
      if (!existsSync(marker)) throw err;
    });
  } finally {
    await rm(aside, { recursive: true, force: true });
  }
}
