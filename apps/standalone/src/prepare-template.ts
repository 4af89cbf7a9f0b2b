/**
 * `node apps/standalone/dist/prepare-template.js [dir]`: makes the embedded store's template cluster
 * (docs/architecture.md "Standalone") ahead of the first start, and prints where it is. The image
 * build runs it, so a container's first start copies the template instead of running initdb, also
 * on a read-only root filesystem. `dir` replaces the default location (beside the installed PGlite).
 */
import { resolve } from 'node:path';
import { prepareEmbeddedTemplate } from '@unigate/platform/database';

const dir = process.argv[2];
prepareEmbeddedTemplate(dir === undefined ? undefined : resolve(dir)).then(
  (template) => process.stdout.write(`embedded Postgres template: ${template}\n`),
  (err: unknown) => {
    process.stderr.write(`could not make the embedded Postgres template: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
