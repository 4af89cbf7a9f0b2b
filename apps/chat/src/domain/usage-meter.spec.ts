/**
 * What a chat call is billed for, from the usage the adapters report: cached prompt tokens at the
 * cached price, reasoning tokens as output (they are inside completion_tokens).
 */
import { tokenCostMicros, type ChatCompletionChunk, type ChatCompletionRequest, type Prices } from '@unigate/contracts';
import { UsageMeter } from './usage-meter';

// omega-k3's default prices (docs/pricing.md): $0.60 input, $0.15 cached input, $2.50 output per Mtok.
const OMEGA: Prices = { input_per_mtok: 600_000, cached_input_per_mtok: 150_000, output_per_mtok: 2_500_000 };
const request: ChatCompletionRequest = { model: 'omega-k3', messages: [{ role: 'user', content: 'Summarise the document.' }] };

const usageChunk = (cached: number, reasoning: number): ChatCompletionChunk => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'omega-k3',
  choices: [],
  usage: {
    prompt_tokens: 100_000,
    completion_tokens: 2_000 + reasoning,
    total_tokens: 102_000 + reasoning,
    prompt_tokens_details: { cached_tokens: cached },
    completion_tokens_details: { reasoning_tokens: reasoning },
  },
});

function billed(cached: number, reasoning = 0) {
  const meter = new UsageMeter(request);
  meter.observeChunk(usageChunk(cached, reasoning));
  const units = meter.units();
  return { units, cost: tokenCostMicros(OMEGA, units) };
}

describe('UsageMeter → cost', () => {
  it('bills cached prompt tokens at the cached price: a cache hit costs less', () => {
    const cold = billed(0);
    const warm = billed(96_000);
    expect(warm.units).toEqual({ input_tokens: 100_000, cached_input_tokens: 96_000, output_tokens: 2_000 });
    // cold: 100k × $0.60 + 2k × $2.50 = $0.065; warm: 4k × $0.60 + 96k × $0.15 + 2k × $2.50 = $0.0218
    expect(cold.cost).toBe(65_000);
    expect(warm.cost).toBe(21_800);
    expect(warm.cost).toBeLessThan(cold.cost);
  });

  it('bills reasoning tokens as output, since they are inside completion_tokens', () => {
    const thinking = billed(0, 3_000);
    expect(thinking.units.output_tokens).toBe(5_000);
    expect(thinking.cost - billed(0).cost).toBe(7_500); // 3k × $2.50 per Mtok
  });

  it('never counts more cached tokens than prompt tokens', () => {
    expect(billed(250_000).units.cached_input_tokens).toBe(100_000);
  });
});
