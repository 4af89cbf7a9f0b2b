/**
 * Standalone generates its admin token and, when none is given, a bootstrap API key on first start,
 * and keeps them in the data directory (mode 0600) so they survive restarts.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function persistentSecret(dataDir: string, file: string, generate: () => string): string {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, file);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const value = generate();
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  return value;
}

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function generateApiKey(): string {
  const bytes = randomBytes(48);
  let out = 'sk-';
  for (const b of bytes) out += BASE62[b % 62];
  return out;
}

export const generateAdminToken = () => randomBytes(24).toString('hex');
