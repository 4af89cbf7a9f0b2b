import type { ModelInfo } from '../../catalog';
import { planGammaGeneration } from './gamma-generation';

const flash = {
  id: 'gamma-3.1-flash-image-preview',
  kind: 'image',
  context_window: 65_536,
  prices: { input_per_mtok: 500_000, output_per_mtok: 0 },
  image: { image_sizes: ['1K'], aspect_ratios: ['1:1'], max_n: 1, min_reference_images: 0, max_reference_images: 14 },
} as unknown as ModelInfo;

describe('planGammaGeneration', () => {
  it('holds the estimated input and one image', () => {
    const usage = planGammaGeneration(flash, { model: flash.id, input: 'a boat' });
    expect(usage).toMatchObject({ images: 1, image_size: '1K' });
    expect(usage.input_tokens).toBeLessThan(100);
  });

  it('holds the model’s whole input window for a continuation, whose stored turns the upstream reads', () => {
    expect(planGammaGeneration(flash, { model: flash.id, input: 'now at night', previous_interaction_id: 'v1_abc' })).toMatchObject({
      input_tokens: 65_536,
      images: 1,
    });
    // A model without a known window keeps the estimate.
    const open = { ...flash, context_window: undefined };
    expect(
      planGammaGeneration(open, { model: flash.id, input: 'now at night', previous_interaction_id: 'v1_abc' }).input_tokens,
    ).toBeLessThan(100);
  });
});
