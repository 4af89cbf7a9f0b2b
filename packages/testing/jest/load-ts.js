/**
 * Loads one TypeScript file of packages/testing/src from source, compiled on the fly with @swc/core
 * (a root devDependency), so jest's global setup needs no build first.
 * Jest loads globalSetup itself, outside the @swc/jest transform of the test projects.
 *
 * The loaded file may import node built-ins and packages only (no relative .ts imports):
 * packages/testing/src/infra.ts is written that way.
 */
'use strict';
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const cache = new Map();

function loadTs(file) {
  const filename = path.resolve(file);
  if (cache.has(filename)) return cache.get(filename);
  const { transformSync } = require('@swc/core');
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  });
  const mod = new Module(filename, module);
  mod.filename = filename;
  mod.paths = Module._nodeModulePaths(path.dirname(filename));
  mod._compile(code, filename);
  cache.set(filename, mod.exports);
  return mod.exports;
}

/** The infra helpers (Postgres/Redis checks, Kafka test broker) from packages/testing/src/infra.ts. */
function loadInfra() {
  return loadTs(path.join(__dirname, '..', 'src', 'infra.ts'));
}

module.exports = { loadTs, loadInfra };
