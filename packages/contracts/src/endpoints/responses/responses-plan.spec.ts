import type { ModelInfo } from '../../catalog';
import { costMicros } from '../../pricing';
import { planResponses } from './responses-plan';

const model = (over: Partial<ModelInfo> = {}): ModelInfo =>
  ({
    id: 'sigma-sonnet-4-6',
    kind: 'chat',
    context_window: 200_000,
    max_output_tokens: 64_000,
    prices: { input_per_mtok: 3_000_000, cached_input_per_mtok: 300_000, output_per_mtok: 15_000_000 },
    ...over,
  }) as ModelInfo;

describe('planResponses', () => {
  it('holds the estimated new input, with its margin, plus the output the request allows', () => {
    const usage = planResponses(model(), { model: 'sigma-sonnet-4-6', input: 'Hello there', max_output_tokens: 16 });
    expect(usage.output_tokens).toBe(16);
    expect(usage.input_tokens).toBeGreaterThan(16);
    expect(usage.input_tokens).toBeLessThan(100);
  });

  it('holds the whole context window as input for a continuation: its earlier turns are not counted here', () => {
    const req = { model: 'sigma-sonnet-4-6', previous_response_id: 'resp_1', input: 'and then?', max_output_tokens: 16 };
    const usage = planResponses(model(), req);
    expect(usage).toEqual({ input_tokens: 200_000, output_tokens: 16 });
    // $0.60 of input at $3 per million, whatever the stored conversation turns out to hold.
    expect(costMicros(model().prices, usage)).toBe(600_000 + 240);
    // Without max_output_tokens the output is the model's cap, as for any other request.
    expect(planResponses(model(), { model: 'sigma-sonnet-4-6', previous_response_id: 'resp_1' }).output_tokens).toBe(64_000);
  });

  it('holds a continuation on a model without a known window for its new input only', () => {
    const usage = planResponses(model({ context_window: undefined }), {
      model: 'sigma-sonnet-4-6',
      previous_response_id: 'resp_1',
      input: 'and then?',
      max_output_tokens: 16,
    });
    expect(usage.input_tokens).toBeLessThan(100);
  });

  it('holds the whole context window as input for a file part, whose pages are not counted here; an image is held at its estimate', () => {
    const withPart = (part: Record<string, unknown>) => ({
      model: 'sigma-sonnet-4-6',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Summarize' }, part] }],
      max_output_tokens: 16,
    });
    const file = withPart({ type: 'input_file', filename: 'report.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' });
    expect(planResponses(model(), file as never)).toEqual({ input_tokens: 200_000, output_tokens: 16 });
    const image = withPart({ type: 'input_image', image_url: 'https://example.com/cat.png' });
    const fixed = planResponses(model(), image as never).input_tokens!;
    expect(fixed).toBeLessThan(1_000);
    // …up to what the model's vendor charges for one image at most.
    expect(planResponses(model({ max_image_tokens: 5_000 }), image as never).input_tokens).toBe(fixed + 5_000 - 765);
  });

  it('refuses new input larger than the window before any hold, continuation or not', () => {
    const input = 'word '.repeat(30_000);
    for (const previous_response_id of [undefined, 'resp_1']) {
      expect(() => planResponses(model({ context_window: 1_000 }), { model: 'sigma-sonnet-4-6', input, previous_response_id })).toThrow(
        expect.objectContaining({ status: 400, code: 'context_length_exceeded' }),
      );
    }
  });
});
