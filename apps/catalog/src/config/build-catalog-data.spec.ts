import { buildCatalogData, type Env } from './build-catalog-data';
import { ConfigError } from './config-error';
import { parseCatalogConfig } from './load-config';

const SIM = 'http://sim.test:9000';

function build(yaml: string, env: Env = {}) {
  return buildCatalogData(parseCatalogConfig(yaml), env, SIM, 'test.yaml');
}

function problemsOf(yaml: string, env: Env = {}): string[] {
  try {
    build(yaml, env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return [...(err as ConfigError).problems];
  }
  throw new Error('expected a ConfigError');
}

const PROVIDERS = `
providers:
  - { name: sigma-direct, protocol: anthropic-messages, base_url: "https://api.sigma.test/", api_key_env: SIGMA_KEY }
  - { name: sigma-relay, protocol: openai-chat, base_url: "https://relay.test/v1", api_key_env: RELAY_KEY }
  - { name: local, protocol: openai-chat, base_url: "http://127.0.0.1:11434/v1" }
`;

describe('buildCatalogData defaults', () => {
  const data = build('');

  it('routes every chat model to the simulator chat endpoint of its family', () => {
    /** Family → [protocol, simulator base]; the rest speak OpenAI chat at `${SIM}/v1`. */
    const byFamily: Record<string, [string, string]> = { gamma: ['gemini-generate', SIM], sigma: ['anthropic-messages', SIM] };
    for (const [id, model] of data.models) {
      if (model.kind !== 'chat') continue;
      const [protocol, base_url] = byFamily[model.family] ?? ['openai-chat', `${SIM}/v1`];
      expect(data.channels.get(id)).toEqual([{ id: 'sim', protocol, base_url, api_key: '', upstream_model: id, priority: 0, weight: 1 }]);
    }
  });

  it('routes other kinds to the simulator in their vendor protocol', () => {
    const protocol = (id: string) => data.channels.get(id)![0].protocol;
    const base = (id: string) => data.channels.get(id)![0].base_url;
    expect(protocol('alpha-image-2.0')).toBe('dashscope');
    expect(base('alpha-image-2.0')).toBe(SIM);
    expect(protocol('alpha-image-edit-max')).toBe('dashscope');
    expect(protocol('delta-image-2')).toBe('openai-images');
    expect(base('delta-image-2')).toBe(`${SIM}/v1`);
    expect(protocol('gamma-3-pro-image-preview')).toBe('gemini-interactions');
    expect(protocol('beta2.7-r2v')).toBe('dashscope');
    expect(protocol('text-embedding-v4')).toBe('dashscope');
    expect(protocol('text-embedding-004')).toBe('openai-embeddings');
    expect(protocol('zeta-4-lite')).toBe('voyage');
    expect(base('zeta-4-lite')).toBe(`${SIM}/v1`);
    expect(protocol('alpha3-tts-flash')).toBe('dashscope');
  });
});

describe('buildCatalogData with a configuration', () => {
  it('replaces the default channel with the configured ones, keys read from the environment', () => {
    const data = build(
      `${PROVIDERS}
models:
  sigma-sonnet-4-6:
    channels:
      - { provider: sigma-direct, upstream_model: claude-sonnet-4-6, priority: 10 }
      - { provider: sigma-relay, weight: 3 }
      - { provider: sigma-relay, upstream_model: sonnet-alt, weight: 0 }
`,
      { SIGMA_KEY: 'sk-sigma', RELAY_KEY: 'sk-relay' },
    );
    expect(data.channels.get('sigma-sonnet-4-6')).toEqual([
      {
        id: 'sigma-direct',
        protocol: 'anthropic-messages',
        base_url: 'https://api.sigma.test',
        api_key: 'sk-sigma',
        upstream_model: 'claude-sonnet-4-6',
        priority: 10,
        weight: 1,
      },
      {
        id: 'sigma-relay',
        protocol: 'openai-chat',
        base_url: 'https://relay.test/v1',
        api_key: 'sk-relay',
        upstream_model: 'sigma-sonnet-4-6',
        priority: 0,
        weight: 3,
      },
      {
        id: 'sigma-relay#2',
        protocol: 'openai-chat',
        base_url: 'https://relay.test/v1',
        api_key: 'sk-relay',
        upstream_model: 'sonnet-alt',
        priority: 0,
        weight: 0,
      },
    ]);
    // Models the file does not mention keep the simulator.
    expect(data.channels.get('sigma-opus-4-7')![0].id).toBe('sim');
  });

  it('fails start when a key variable is unset or empty, naming the variable and never a value', () => {
    const yaml = `${PROVIDERS}models:\n  omega-k3: { channels: [{ provider: sigma-relay }] }\n`;
    const problems = problemsOf(yaml, { SIGMA_KEY: 'sk-very-secret', RELAY_KEY: '' });
    expect(problems).toEqual(['providers[1].api_key_env: environment variable RELAY_KEY is not set']);
    expect(problemsOf(yaml, {})).toEqual([
      'providers[0].api_key_env: environment variable SIGMA_KEY is not set',
      'providers[1].api_key_env: environment variable RELAY_KEY is not set',
    ]);
    const message = problemsOf(yaml, { SIGMA_KEY: 'sk-very-secret' }).join('\n');
    expect(message).toContain('RELAY_KEY');
    expect(message).not.toContain('sk-very-secret');
  });

  it('lets keyless providers go without api_key_env', () => {
    const data = build(`${PROVIDERS}models:\n  omega-k3: { channels: [{ provider: local }] }\n`, { SIGMA_KEY: 'a', RELAY_KEY: 'b' });
    expect(data.channels.get('omega-k3')![0]).toMatchObject({ id: 'local', api_key: '', base_url: 'http://127.0.0.1:11434/v1' });
  });

  it('checks cross references', () => {
    const env = { SIGMA_KEY: 'a', RELAY_KEY: 'b' };
    expect(problemsOf(`${PROVIDERS}models:\n  omega-k3: { channels: [{ provider: nobody }] }`, env)).toEqual([
      "models.omega-k3.channels[0].provider: unknown provider 'nobody'",
    ]);
    expect(problemsOf(`${PROVIDERS}models:\n  zeta-4: { channels: [{ provider: sigma-relay }] }`, env)).toEqual([
      "models.zeta-4.channels[0].provider: protocol openai-chat cannot serve embedding model 'zeta-4'",
    ]);
    expect(problemsOf(`${PROVIDERS}  - { name: local, protocol: voyage, base_url: "http://x.test/v1" }`, env)).toEqual([
      "providers[3].name: duplicate provider 'local'",
    ]);
    expect(problemsOf('aliases: { claude-sonnet-4-5: sigma-sonnet-9 }')).toEqual([
      "aliases.claude-sonnet-4-5: unknown model 'sigma-sonnet-9'",
    ]);
    expect(problemsOf('aliases: { omega-k3: gamma-2.5-pro }')).toEqual(["aliases.omega-k3: 'omega-k3' is already a model id"]);
    expect(problemsOf('prices: { nope-1: { input_per_mtok: 1 } }')).toEqual([
      "prices.nope-1: unknown model 'nope-1' (add it under models first)",
    ]);
    expect(problemsOf('models:\n  omega-k3: { kind: embedding }')).toEqual([
      "models.omega-k3.kind: built-in model 'omega-k3' is a chat model",
    ]);
  });

  it('merges price overrides over the defaults, models.<id>.prices first, then prices.<id>', () => {
    const data = build(`
models:
  sigma-opus-4-7:
    prices: { input_per_mtok: 4000000, cached_input_per_mtok: 400000 }
prices:
  sigma-opus-4-7: { output_per_mtok: 20000000, cached_input_per_mtok: 100000 }
  sigma-sonnet-4-6: { input_per_mtok: 2000000, cache_write_1h_input_per_mtok: 5000000 }
  beta2.6-t2v: { per_video_second_by_resolution: { 720p: 80000, 1080p: 120000 } }
`);
    expect(data.models.get('sigma-opus-4-7')!.prices).toEqual({
      input_per_mtok: 4_000_000,
      cached_input_per_mtok: 100_000,
      cache_write_input_per_mtok: 5_000_000, // not overridden: it follows input at the built-in 1.25×
      cache_write_1h_input_per_mtok: 8_000_000, // and the one-hour write at its built-in 2×
      output_per_mtok: 20_000_000,
    });
    expect(data.models.get('sigma-sonnet-4-6')!.prices).toEqual({
      input_per_mtok: 2_000_000,
      cached_input_per_mtok: 300_000,
      cache_write_input_per_mtok: 2_500_000, // follows input at 1.25×
      cache_write_1h_input_per_mtok: 5_000_000, // overridden: as set
      output_per_mtok: 15_000_000,
    });
    expect(data.models.get('beta2.6-t2v')!.prices.per_video_second_by_resolution).toEqual({ '720p': 80_000, '1080p': 120_000 });
    expect(data.models.get('beta2.6-t2v')!.prices.per_video_second).toBe(100_000); // untouched fields stay
  });

  it('adds new models, requiring family and kind, and routes them by default to the simulator', () => {
    const data = build(`
models:
  omega-k3-mini:
    family: omega
    kind: chat
    context_window: 262144
    prices: { input_per_mtok: 200000, output_per_mtok: 800000 }
aliases:
  k3-mini: omega-k3-mini
`);
    expect(data.models.get('omega-k3-mini')).toEqual({
      id: 'omega-k3-mini',
      family: 'omega',
      kind: 'chat',
      owned_by: 'omega',
      created: 1767225600,
      context_window: 262_144,
      prices: { input_per_mtok: 200_000, output_per_mtok: 800_000 },
    });
    expect(data.channels.get('omega-k3-mini')![0]).toMatchObject({ id: 'sim', protocol: 'openai-chat', upstream_model: 'omega-k3-mini' });
    expect([...data.models.keys()].at(-1)).toBe('omega-k3-mini');
    expect(problemsOf('models:\n  brand-new: { prices: { input_per_mtok: 1 } }')).toEqual([
      'models.brand-new.kind: is required for a model that is not built in',
      'models.brand-new.family: is required for a model that is not built in',
    ]);
  });

  it("takes a chat model's max_image_tokens, the bound its holds price an image at, and refuses it on other kinds", () => {
    expect(build('models:\n  sigma-sonnet-4-6: { max_image_tokens: 2000 }').models.get('sigma-sonnet-4-6')!.max_image_tokens).toBe(2_000);
    expect(build('models: {}').models.get('sigma-opus-4-7')!.max_image_tokens).toBe(5_000);
    expect(problemsOf('models:\n  beta2.6-t2v: { max_image_tokens: 2000 }')).toEqual([
      "models.beta2.6-t2v.max_image_tokens: only a chat model takes it ('beta2.6-t2v' is a video model)",
    ]);
  });
});
