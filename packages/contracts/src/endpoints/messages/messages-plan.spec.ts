import { anthropicMessagesRequestSchema } from '../../anthropic';
import type { ModelInfo } from '../../catalog';
import { IMAGE_BLOCK_TOKENS } from '../../tokens';
import { parseOrThrow } from '../../validation';
import { planMessages } from './messages-plan';

/** sigma-sonnet-4-6 as the catalogue has it: a 200,000-token window, $3 / $15 per million tokens. */
const prices = { input_per_mtok: 3_000_000, cached_input_per_mtok: 300_000, output_per_mtok: 15_000_000 };
const sigma = { id: 'sigma-sonnet-4-6', kind: 'chat', context_window: 200_000, max_output_tokens: 64_000, prices } as ModelInfo;
const ask = (block: Record<string, unknown>) =>
  parseOrThrow(anthropicMessagesRequestSchema, {
    model: sigma.id,
    max_tokens: 100,
    messages: [{ role: 'user', content: [block, { type: 'text', text: 'Summarize it' }] }],
  });

describe('planMessages', () => {
  it.each([
    ['a base64 PDF', { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' }],
    ['a PDF by URL', { type: 'url', url: 'https://example.com/report.pdf' }],
  ])("holds the model's whole window as input for %s: its pages are not counted here", (_what, source) => {
    expect(planMessages(sigma, ask({ type: 'document', source }))).toEqual({ input_tokens: 200_000, output_tokens: 100 });
  });

  it('holds the estimate for what it can count: a plain-text document', () => {
    const text = planMessages(
      sigma,
      ask({ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'word '.repeat(1_000) } }),
    );
    expect(text.input_tokens).toBeGreaterThan(1_000);
    expect(text.input_tokens).toBeLessThan(2_000);
  });

  it("holds an image at the most the model's vendor charges for one, or the fixed cost without it", () => {
    const image = ask({ type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } });
    const fixed = planMessages(sigma, image).input_tokens!;
    expect(fixed).toBeGreaterThan(IMAGE_BLOCK_TOKENS);
    expect(fixed).toBeLessThan(1_100);
    // What an image took above its fixed cost, nothing more: the rest of the estimate keeps its margin.
    expect(planMessages({ ...sigma, max_image_tokens: 1_600 }, image).input_tokens).toBe(fixed + 1_600 - IMAGE_BLOCK_TOKENS);
    expect(planMessages({ ...sigma, max_image_tokens: 258 }, image).input_tokens).toBe(fixed);
  });

  it('holds a PDF inside a tool result the same way', () => {
    const req = parseOrThrow(anthropicMessagesRequestSchema, {
      model: sigma.id,
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'Read the report' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read', input: {} }] },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't1',
              content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } }],
            },
          ],
        },
      ],
    });
    expect(planMessages(sigma, req).input_tokens).toBe(200_000);
  });
});
