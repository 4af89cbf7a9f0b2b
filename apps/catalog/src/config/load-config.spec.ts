import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config-error';
import { loadCatalogConfig, parseCatalogConfig } from './load-config';

function problemsOf(text: string): string[] {
  try {
    parseCatalogConfig(text, 'test.yaml');
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toContain('Invalid UNIGATE_CONFIG (test.yaml)');
    return [...(err as ConfigError).problems];
  }
  throw new Error('expected a ConfigError');
}

describe('parseCatalogConfig', () => {
  it('accepts an empty file as an empty configuration', () => {
    expect(parseCatalogConfig('')).toEqual({ providers: [], models: {}, prices: {}, aliases: {} });
  });

  it('fills channel defaults (priority 0, weight 1)', () => {
    const cfg = parseCatalogConfig(`
providers:
  - { name: up, protocol: openai-chat, base_url: "https://up.example/v1", api_key_env: UP_KEY }
models:
  gamma-2.5-pro:
    channels: [{ provider: up }]
aliases:
  gemini-2.5-pro: gamma-2.5-pro
`);
    expect(cfg.models['gamma-2.5-pro'].channels).toEqual([{ provider: 'up', priority: 0, weight: 1 }]);
    expect(cfg.aliases).toEqual({ 'gemini-2.5-pro': 'gamma-2.5-pro' });
  });

  it('names the field of a bad value', () => {
    expect(problemsOf('providers:\n  - { name: up, protocol: openai-chat, base_url: "not a url" }')).toEqual([
      'providers[0].base_url: must be an http(s) URL',
    ]);
    expect(problemsOf('providers:\n  - { name: up, protocol: carrier-pigeon, base_url: "https://x.test" }')[0]).toMatch(
      /^providers\[0\]\.protocol: /,
    );
    expect(problemsOf('models:\n  x: { channels: [{ provider: up, weight: -1 }] }')[0]).toMatch(/^models\.x\.channels\[0\]\.weight: /);
    expect(problemsOf('prices:\n  omega-k3: { input_per_mtok: 0.5 }')[0]).toMatch(/^prices\.omega-k3\.input_per_mtok: /);
  });

  it('names a missing required field', () => {
    expect(problemsOf('providers:\n  - { protocol: openai-chat, base_url: "https://x.test" }')).toEqual(['providers[0].name: is required']);
  });

  it('rejects unknown fields, so typos do not pass silently', () => {
    expect(problemsOf('modles: {}')).toEqual(['unknown field(s): modles']);
    expect(problemsOf('models:\n  omega-k3: { chanels: [] }')).toEqual(['models.omega-k3: unknown field(s): chanels']);
  });

  it('refuses an API key written in the file', () => {
    expect(problemsOf('providers:\n  - { name: up, protocol: voyage, base_url: "https://x.test/v1", api_key: sk-secret }')).toEqual([
      'providers[0]: unknown field(s): api_key',
    ]);
    expect(
      problemsOf('providers:\n  - { name: up, protocol: voyage, base_url: "https://x.test/v1", api_key_env: "sk-secret" }')[0],
    ).toMatch(/^providers\[0\]\.api_key_env: must be an environment variable name/);
  });

  it('reports YAML syntax errors and duplicate keys', () => {
    expect(problemsOf('models: [unclosed')[0]).toMatch(/^YAML: /);
    expect(problemsOf('aliases:\n  a: omega-k3\n  a: gamma-2.5-pro')[0]).toMatch(/^YAML: .*unique/i);
  });

  it('reports every problem, not only the first', () => {
    expect(problemsOf('providers:\n  - { name: up, protocol: nope, base_url: nope }')).toHaveLength(2);
  });
});

describe('loadCatalogConfig', () => {
  it('reads a file', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'catalog-')), 'c.yaml');
    writeFileSync(path, 'aliases: { k: omega-k3 }\n');
    expect(loadCatalogConfig(path).aliases).toEqual({ k: 'omega-k3' });
  });

  it('names the file it cannot read', () => {
    expect(() => loadCatalogConfig('/nonexistent/unigate.yaml')).toThrow(
      /Invalid UNIGATE_CONFIG \(\/nonexistent\/unigate\.yaml\):\n {2}- cannot read the file/,
    );
  });
});
