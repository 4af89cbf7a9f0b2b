/** Read and validate the UNIGATE_CONFIG file: YAML syntax first, then the schema, naming every bad field. */
import { readFileSync } from 'node:fs';
import { formatPath } from '@unigate/contracts';
import { parseDocument } from 'yaml';
import { catalogConfigSchema, type CatalogConfig } from './config.schema';
import { ConfigError } from './config-error';

export function loadCatalogConfig(path: string): CatalogConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(path, [`cannot read the file: ${(err as Error).message}`]);
  }
  return parseCatalogConfig(text, path);
}

/** `source` names the file in error messages. */
export function parseCatalogConfig(text: string, source = 'inline'): CatalogConfig {
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0)
    throw new ConfigError(
      source,
      doc.errors.map((e) => `YAML: ${e.message}`),
    );
  const raw: unknown = doc.toJS() ?? {}; // an empty file is an empty configuration
  const result = catalogConfigSchema.safeParse(raw);
  if (result.success) return result.data;
  throw new ConfigError(
    source,
    result.error.issues.map((issue) => {
      const at = formatPath(issue.path);
      let message = issue.message;
      if (issue.code === 'unrecognized_keys') message = `unknown field(s): ${issue.keys.join(', ')}`;
      if (issue.code === 'invalid_type' && issue.input === undefined) message = 'is required';
      return at ? `${at}: ${message}` : message;
    }),
  );
}
