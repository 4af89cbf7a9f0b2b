import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config/config-error';
import { createCatalog } from './create-catalog';

const EXAMPLES = join(__dirname, '..', 'examples');

function tempFile(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'catalog-')), 'unigate.yaml');
  writeFileSync(path, text);
  return path;
}

describe('createCatalog', () => {
  it('defaults to the simulator at 127.0.0.1:8090', async () => {
    const route = await createCatalog({ env: {} }).resolve('gamma-2.5-flash');
    expect(route.channels).toEqual([
      {
        id: 'sim',
        protocol: 'gemini-generate',
        base_url: 'http://127.0.0.1:8090',
        api_key: '',
        upstream_model: 'gamma-2.5-flash',
        priority: 0,
        weight: 1,
      },
    ]);
  });

  it('follows UNIGATE_SIM_URL', async () => {
    const route = await createCatalog({ env: { UNIGATE_SIM_URL: 'http://sim.internal:7000/' } }).resolve('alpha-image-max');
    expect(route.channels[0]).toMatchObject({ protocol: 'dashscope', base_url: 'http://sim.internal:7000' });
  });

  it('reads the UNIGATE_CONFIG file and the keys its providers name', async () => {
    const path = tempFile(`
providers:
  - { name: sigma, protocol: anthropic-messages, base_url: "https://api.sigma.test", api_key_env: SIGMA_API_KEY }
models:
  sigma-opus-4-7: { channels: [{ provider: sigma, upstream_model: claude-opus-4-7 }] }
aliases: { claude-opus-4-1: sigma-opus-4-7 }
`);
    const route = await createCatalog({ env: { UNIGATE_CONFIG: path, SIGMA_API_KEY: 'sk-test' } }).resolve('claude-opus-4-1');
    expect(route.channels).toEqual([
      {
        id: 'sigma',
        protocol: 'anthropic-messages',
        base_url: 'https://api.sigma.test',
        api_key: 'sk-test',
        upstream_model: 'claude-opus-4-7',
        priority: 0,
        weight: 1,
      },
    ]);
  });

  it('fails with a ConfigError naming the file and field', () => {
    const path = tempFile('providers:\n  - { name: x, protocol: openai-chat, base_url: ftp://x }\n');
    expect(() => createCatalog({ env: { UNIGATE_CONFIG: path } })).toThrow(ConfigError);
    expect(() => createCatalog({ env: { UNIGATE_CONFIG: path } })).toThrow(
      `Invalid UNIGATE_CONFIG (${path}):\n  - providers[0].base_url: must be an http(s) URL`,
    );
  });

  it.each(readdirSync(EXAMPLES).filter((f) => f.endsWith('.yaml')))('loads the example %s', async (file) => {
    const env = {
      UNIGATE_CONFIG: join(EXAMPLES, file),
      SIGMA_API_KEY: 'k1',
      GAMMA_API_KEY: 'k2',
      OMEGA_API_KEY: 'k3',
      ALPHA_API_KEY: 'k4',
      ZETA_API_KEY: 'k5',
      DELTA_API_KEY: 'k6',
      RELAY_API_KEY: 'k7',
    };
    const list = await createCatalog({ env }).list();
    expect(list.length).toBeGreaterThanOrEqual(39);
  });
});
