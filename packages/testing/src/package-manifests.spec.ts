/**
 * The shared packages (packages/*) are libraries a service outside this repo installs from a packed
 * tarball, without this repo's hoisted node_modules: each must declare every package its code loads
 * and ship its build, not its sources and tests. Read from the sources, so no build is needed: what
 * dist requires and what its .d.ts files name are the sources' imports (type-only ones included).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

const ROOT = resolve(__dirname, '../../..');
const workspaces = (folder: string) =>
  readdirSync(join(ROOT, folder))
    .filter((d) => existsSync(join(ROOT, folder, d, 'package.json')))
    .map((d) => `${folder}/${d}`);
const PACKAGES = workspaces('packages');
/** The apps run from the image's pruned node_modules: they too may not borrow what they load. */
const APPS = workspaces('apps');
const BUILTINS = new Set(builtinModules);

interface Manifest {
  name: string;
  main?: string;
  types?: string;
  files?: string[];
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const manifest = (dir: string): Manifest => JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as Manifest;

/** The package's own code: what its build compiles (no specs, tests or their support). */
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (!e.name.startsWith('__test-support__') && e.name !== '__fixtures__') walk(p);
      } else if (/\.ts$/.test(e.name) && !/\.(spec|test)\.ts$/.test(e.name)) out.push(p);
    }
  };
  walk(join(ROOT, dir, 'src'));
  return out;
}

const literal = (node: ts.Node | undefined): string | undefined =>
  node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;

/** Module names a file loads: imports and re-exports (type-only too), import types, require, require.resolve, import(). */
function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    let name: string | undefined;
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) name = literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      name = literal(node.moduleReference.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) name = literal(node.argument.literal);
    else if (ts.isCallExpression(node)) {
      const callee = node.expression.getText(source);
      if (callee === 'require' || callee === 'require.resolve' || node.expression.kind === ts.SyntaxKind.ImportKeyword)
        name = literal(node.arguments[0]);
    }
    if (name !== undefined) found.push(name);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The package a module name belongs to; undefined for relative paths and Node's built-ins. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return BUILTINS.has(name) ? undefined : name;
}

describe.each([...PACKAGES, ...APPS])('%s', (dir) => {
  const pkg = manifest(dir);

  it('declares every package its code imports (none is borrowed from the root or another workspace)', () => {
    const declared = new Set(Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies, ...pkg.optionalDependencies }));
    const imported = new Map<string, string>();
    for (const file of sourceFiles(dir)) {
      for (const s of specifiers(file)) {
        const name = packageOf(s);
        if (name && name !== pkg.name && !imported.has(name)) imported.set(name, relative(ROOT, file));
      }
    }
    expect(imported.size).toBeGreaterThan(0); // the walk found the imports at all
    const undeclared = [...imported].filter(([name]) => !declared.has(name)).map(([name, file]) => `${name} (${file})`);
    expect(undeclared).toEqual([]);
  });
});

describe.each(PACKAGES)('%s', (dir) => {
  const pkg = manifest(dir);

  it('declares nothing its code never loads (every consumer would install it for nothing)', () => {
    const loaded = new Set(sourceFiles(dir).flatMap((file) => specifiers(file).map(packageOf)));
    expect(Object.keys(pkg.dependencies ?? {}).filter((name) => !loaded.has(name))).toEqual([]);
  });

  it('packs its build, not its sources and tests: files lists dist, which holds main and types', () => {
    expect(pkg.files).toContain('dist');
    expect(pkg.files).not.toContain('src');
    expect(pkg.files).not.toContain('test');
    expect(pkg.main).toMatch(/^dist\/.+\.js$/);
    expect(pkg.types).toMatch(/^dist\/.+\.d\.ts$/);
  });
});
