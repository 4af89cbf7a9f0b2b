import { GatewayError } from '@unigate/contracts';
import { buildCatalogData } from '../config/build-catalog-data';
import { parseCatalogConfig } from '../config/load-config';
import { CatalogService } from './catalog.service';
import { seededRandom } from './random';

const YAML = `
providers:
  - { name: primary, protocol: anthropic-messages, base_url: "https://primary.test", api_key_env: PRIMARY_KEY }
  - { name: east, protocol: openai-chat, base_url: "https://east.test/v1" }
  - { name: west, protocol: openai-chat, base_url: "https://west.test/v1" }
models:
  sigma-sonnet-4-6:
    channels:
      - { provider: primary, upstream_model: claude-sonnet-4-6, priority: 1 }
      - { provider: east, weight: 1 }
      - { provider: west, weight: 1 }
aliases:
  claude-sonnet-4-5: sigma-sonnet-4-6
`;

function catalog(seed = 1) {
  return new CatalogService(buildCatalogData(parseCatalogConfig(YAML), { PRIMARY_KEY: 'sk-p' }, 'http://sim.test'), seededRandom(seed));
}

describe('CatalogService', () => {
  it('resolves a model to its facts and ordered channels', async () => {
    const route = await catalog().resolve('sigma-sonnet-4-6');
    expect(route.model).toMatchObject({ id: 'sigma-sonnet-4-6', family: 'sigma', kind: 'chat' });
    expect(route.channels[0]).toMatchObject({ id: 'primary', api_key: 'sk-p', upstream_model: 'claude-sonnet-4-6' });
    expect(
      route.channels
        .slice(1)
        .map((c) => c.id)
        .sort(),
    ).toEqual(['east', 'west']);
  });

  it('applies aliases: the route names the canonical model', async () => {
    const route = await catalog().resolve('claude-sonnet-4-5');
    expect(route.model.id).toBe('sigma-sonnet-4-6');
    expect(catalog().canonicalId('claude-sonnet-4-5')).toBe('sigma-sonnet-4-6');
    expect(catalog().aliases()).toMatchObject({ 'claude-sonnet-4-5': 'sigma-sonnet-4-6' });
  });

  it('matches prefix aliases: exact first, then the longest prefix', () => {
    const c = new CatalogService(
      buildCatalogData(
        parseCatalogConfig(`
aliases:
  claude-sonnet-4-6-*: gamma-2.5-pro
  claude-sonnet-4-6-exact: omega-k3
`),
        {},
        'http://sim.test',
      ),
    );
    // Built-in: the coding assistant's dated names reach the sigma models.
    expect(c.canonicalId('claude-sonnet-4-5-20250929')).toBe('sigma-sonnet-4-6');
    expect(c.canonicalId('claude-opus-4-1-20250805')).toBe('sigma-opus-4-7');
    expect(c.canonicalId('claude-haiku-4-5-20251001')).toBe('sigma-sonnet-4-6');
    expect(c.canonicalId('claude-sonnet-4-6-20260101')).toBe('gamma-2.5-pro');
    expect(c.canonicalId('claude-sonnet-4-6-exact')).toBe('omega-k3');
    // Current and future versions of every family, and a family name not seen yet.
    expect(c.canonicalId('claude-opus-5-5')).toBe('sigma-opus-4-7');
    expect(c.canonicalId('claude-haiku-5-0')).toBe('sigma-sonnet-4-6');
    expect(c.canonicalId('claude-mythos-1')).toBe('sigma-sonnet-4-6');
    expect(c.canonicalId('claude')).toBeUndefined();
    expect(c.canonicalId('gpt-4o')).toBeUndefined();
  });

  it('lets the configuration retarget a built-in alias', () => {
    const c = new CatalogService(
      buildCatalogData(parseCatalogConfig('aliases: { "claude-haiku-*": gamma-2.5-flash }'), {}, 'http://sim.test'),
    );
    expect(c.canonicalId('claude-haiku-4-5')).toBe('gamma-2.5-flash');
    expect(c.canonicalId('claude-opus-5-5')).toBe('sigma-opus-4-7');
  });

  it('lets the configuration send every family elsewhere with one pattern', () => {
    const c = new CatalogService(
      buildCatalogData(parseCatalogConfig('aliases: { "claude-*": omega-k3, "claude-opus-*": omega-k3 }'), {}, 'http://sim.test'),
    );
    expect(c.canonicalId('claude-opus-5-5')).toBe('omega-k3');
    expect(c.canonicalId('claude-mythos-1')).toBe('omega-k3');
  });

  it('spreads equal-priority channels across calls', async () => {
    const c = catalog(5);
    const seconds = new Set<string>();
    for (let i = 0; i < 50; i++) seconds.add((await c.resolve('sigma-sonnet-4-6')).channels[1].id);
    expect([...seconds].sort()).toEqual(['east', 'west']);
  });

  it('throws model_not_found for an unknown model', async () => {
    const err = await catalog()
      .resolve('sigma-sonnet-9')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
    expect((err as Error).message).toContain("'sigma-sonnet-9'");
    expect(catalog().canonicalId('sigma-sonnet-9')).toBeUndefined();
  });

  it('lists models without aliases, in catalogue order', async () => {
    const list = await catalog().list();
    expect(list).toHaveLength(41);
    expect(list[0].id).toBe('sigma-sonnet-4-6');
    expect(list.map((m) => m.id)).not.toContain('claude-sonnet-4-5');
  });

  it('hands out frozen objects without copying them, so a caller cannot change the catalogue', async () => {
    const c = catalog();
    const route = await c.resolve('omega-k3');
    expect(() => (route.model.prices.output_per_mtok = 0)).toThrow(TypeError);
    expect(() => (route.channels[0].base_url = 'http://evil.test')).toThrow(TypeError);
    expect(() => ((c.listNow()[0] as { context_window?: number }).context_window = 1)).toThrow(TypeError);
    expect((await c.resolve('omega-k3')).model).toBe(route.model); // the same object, not a copy
    const again = await c.resolve('omega-k3');
    expect(again.model.prices.output_per_mtok).toBe(2_500_000);
    expect(again.channels[0].base_url).toBe('http://sim.test/v1');
    expect((await c.list())[0].context_window).toBe(200_000);
  });
});
