import { MODEL_KINDS, priceSchema, type ModelInfo } from '@unigate/contracts';
import { BUILTIN_MODELS } from './index';

/** Every model id SPEC.md names, with the family word and kind we give it. */
const SPEC_MODELS: Array<[string, string, ModelInfo['kind']]> = [
  ['sigma-sonnet-4-6', 'sigma', 'chat'],
  ['sigma-opus-4-7', 'sigma', 'chat'],
  ['gamma-2.5-pro', 'gamma', 'chat'],
  ['gamma-2.5-flash', 'gamma', 'chat'],
  ['omega-k3', 'omega', 'chat'],
  ['alpha-image-2.0', 'alpha', 'image'],
  ['alpha-image-2.0-pro', 'alpha', 'image'],
  ['alpha-image-max', 'alpha', 'image'],
  ['alpha-image-edit', 'alpha', 'image-edit'],
  ['alpha-image-edit-plus', 'alpha', 'image-edit'],
  ['alpha-image-edit-max', 'alpha', 'image-edit'],
  ['delta-image-2', 'delta', 'image-edit'],
  ['delta-image-1', 'delta', 'image-edit'],
  ['delta-e-2', 'delta', 'image-edit'],
  ['gamma-3.1-flash-image-preview', 'gamma', 'image'],
  ['gamma-3-pro-image-preview', 'gamma', 'image'],
  ['gamma-2.5-flash-image', 'gamma', 'image'],
  ['gamma-2.5-flash-image-preview', 'gamma', 'image'],
  ['beta2.6-t2v', 'beta', 'video'],
  ['beta2.7-t2v', 'beta', 'video'],
  ['beta2.7-t2v-2026-04-25', 'beta', 'video'],
  ['beta2.5-t2v-preview', 'beta', 'video'],
  ['beta2.6-i2v', 'beta', 'video'],
  ['beta2.6-i2v-flash', 'beta', 'video'],
  ['beta2.7-i2v', 'beta', 'video'],
  ['beta2.7-i2v-2026-04-25', 'beta', 'video'],
  ['beta2.5-i2v-preview', 'beta', 'video'],
  ['beta2.6-r2v', 'beta', 'video'],
  ['beta2.6-r2v-flash', 'beta', 'video'],
  ['beta2.7-r2v', 'beta', 'video'],
  // SPEC.md §4: "further video model families with first/last frame, … seed reproduction" (Ark tasks).
  ['kappa-seed-t2v', 'kappa', 'video'],
  ['kappa-seed-i2v', 'kappa', 'video'],
  ['text-embedding-v4', 'alpha', 'embedding'],
  ['text-embedding-004', 'gamma', 'embedding'],
  ['gamma-embedding-001', 'gamma', 'embedding'],
  ['gamma-embedding-2-preview', 'gamma', 'embedding'],
  ['zeta-4-large', 'zeta', 'embedding'],
  ['zeta-4', 'zeta', 'embedding'],
  ['zeta-4-lite', 'zeta', 'embedding'],
  ['alpha3-tts-flash', 'alpha', 'speech'],
  ['alpha3-tts-instruct-flash', 'alpha', 'speech'],
];

const byId = new Map(BUILTIN_MODELS.map((m) => [m.id, m]));

describe('built-in models', () => {
  it('holds exactly the SPEC.md models, each once', () => {
    expect(BUILTIN_MODELS.map((m) => m.id).sort()).toEqual(SPEC_MODELS.map(([id]) => id).sort());
    expect(byId.size).toBe(BUILTIN_MODELS.length);
  });

  it.each(SPEC_MODELS)('%s is family %s, kind %s, with a fixed created time and endpoints', (id, family, kind) => {
    const m = byId.get(id)!;
    expect(m).toMatchObject({ family, kind });
    expect(MODEL_KINDS).toContain(m.kind);
    expect(Number.isInteger(m.created)).toBe(true);
    expect(m.created).toBeGreaterThan(1_600_000_000);
    expect(m.endpoints?.length).toBeGreaterThan(0);
    expect(m.description).toBeTruthy();
  });

  it('stores prices as valid integer micro-USD', () => {
    for (const m of BUILTIN_MODELS) {
      expect(priceSchema.parse(m.prices)).toEqual(m.prices);
      for (const table of [m.prices.per_image_by_size, m.prices.per_video_second_by_resolution]) {
        for (const v of Object.values(table ?? {})) expect(Number.isInteger(v)).toBe(true);
      }
    }
  });

  it('prices every model by the unit it is billed in', () => {
    for (const m of BUILTIN_MODELS) {
      const p = m.prices;
      if (m.kind === 'chat') expect(p.input_per_mtok > 0 && p.output_per_mtok > 0).toBe(true);
      if (m.kind === 'embedding') expect(p.input_per_mtok).toBeGreaterThan(0);
      if (m.kind === 'speech') expect(p.per_mchar).toBeGreaterThan(0);
      if (m.kind === 'video') expect(Object.keys(p.per_video_second_by_resolution!)).toEqual(m.video!.resolutions);
      if (m.kind === 'image' || m.kind === 'image-edit') expect((p.per_image ?? 0) + p.output_per_mtok).toBeGreaterThan(0);
    }
    expect(byId.get('sigma-sonnet-4-6')!.prices).toEqual({
      input_per_mtok: 3_000_000,
      cached_input_per_mtok: 300_000,
      // Anthropic charges a prompt-cache write at 1.25× its input price, a one-hour one at 2×.
      cache_write_input_per_mtok: 3_750_000,
      cache_write_1h_input_per_mtok: 6_000_000,
      output_per_mtok: 15_000_000,
    });
  });

  it('gives chat models their windows (omega-k3: 1,048,576 tokens, reasoning_effort max only)', () => {
    for (const m of BUILTIN_MODELS.filter((x) => x.kind === 'chat')) {
      expect(m.context_window).toBeGreaterThan(0);
      expect(m.max_output_tokens).toBeGreaterThan(0);
    }
    expect(byId.get('omega-k3')).toMatchObject({ context_window: 1_048_576, chat: { reasoning_efforts: ['max'] } });
  });

  it('gives gamma image models their input window, which bounds a continuation’s hold', () => {
    const gammaImages = BUILTIN_MODELS.filter((x) => x.kind === 'image' && x.family === 'gamma');
    expect(gammaImages.length).toBeGreaterThanOrEqual(4);
    for (const m of gammaImages) expect(m.context_window).toBe(65_536);
  });

  it('carries the SPEC.md limits the edge validates against', () => {
    expect(byId.get('alpha-image-edit')!.image).toMatchObject({ min_reference_images: 1, max_reference_images: 3, max_n: 1 });
    expect(byId.get('alpha-image-2.0')!.image!.sizes).toHaveLength(8);
    expect(byId.get('delta-e-2')!.image!.sizes).toEqual(['256x256', '512x512', '1024x1024']);
    expect(byId.get('delta-image-2')!.image!.freeform_size).toEqual({ max_side: 3840, multiple_of: 16, max_ratio: 3 });
    expect(byId.get('gamma-3.1-flash-image-preview')!.image).toMatchObject({ max_reference_images: 14 });
    expect(byId.get('gamma-3.1-flash-image-preview')!.image!.aspect_ratios).toHaveLength(13);
    expect(byId.get('gamma-2.5-flash-image')!.image!.image_sizes).toEqual(['1K']);
    expect(byId.get('beta2.5-t2v-preview')!.video).toMatchObject({
      input_mode: 't2v',
      api_format: '2.6',
      resolutions: ['480p', '720p', '1080p'],
    });
    expect(byId.get('beta2.7-r2v')!.video).toMatchObject({ input_mode: 'r2v', api_format: '2.7', resolutions: ['720p'] });
    expect(byId.get('zeta-4')!.embedding).toMatchObject({ dimensions: [256, 512, 1024, 2048], default_dimensions: 1024 });
    expect(byId.get('text-embedding-v4')!.embedding!.default_dimensions).toBe(1024);
    expect(byId.get('alpha3-tts-instruct-flash')!.speech).toMatchObject({
      response_formats: ['wav'],
      supports_instructions: true,
      default_voice: 'Cherry',
    });
  });
});
