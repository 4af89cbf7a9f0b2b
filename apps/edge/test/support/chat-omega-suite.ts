/**
 * omega-k3 (SPEC.md §2.2) through the gateway with the official `openai` client: thinking always on,
 * reasoning billed as output, automatic context caching, n candidates, structured output, and every
 * request rule answered with a 400 naming the field before any hold or upstream call.
 */
import OpenAI from 'openai';
import { z } from 'zod';
import { Admin, eventually } from './admin';
import type { Stack } from './stacks';
import { openaiFor, useStack } from './use-stack';

const MODEL = 'omega-k3';
type Reasoned = { reasoning_content?: string; content?: string | null };
type Entry = { request_id: string; cached_input_tokens: number; input_tokens: number; output_tokens: number; cost_micros: number };
// omega-k3 default prices (docs/pricing.md), micro-USD per Mtok.
const PRICES = { input: 600_000, cached: 150_000, output: 2_500_000 };

export function chatOmegaSuite(start: () => Promise<Stack>) {
  let stack: Stack;
  let client: OpenAI;
  let admin: Admin;

  useStack(start, (s) => {
    stack = s;
    client = openaiFor(s);
    admin = new Admin(s);
  });

  it('answers with reasoning_content, its tokens counted inside completion_tokens', async () => {
    const r = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Plan a three-day trip.' }],
      reasoning_effort: 'max' as never,
    });
    const message = r.choices[0].message as Reasoned;
    expect(message.reasoning_content!.length).toBeGreaterThan(0);
    expect(message.content!.length).toBeGreaterThan(0);
    const reasoning = r.usage!.completion_tokens_details!.reasoning_tokens!;
    expect(reasoning).toBeGreaterThan(0);
    expect(r.usage!.completion_tokens).toBeGreaterThan(reasoning);
    expect(r.usage!.total_tokens).toBe(r.usage!.prompt_tokens + r.usage!.completion_tokens);
  });

  it('streams reasoning_content deltas before the content, and bills reasoning as output', async () => {
    const { accountId, key } = await admin.fundedKey(5);
    const keyed = new OpenAI({ baseURL: stack.baseURL, apiKey: key, maxRetries: 0 });
    const stream = await keyed.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'Think, then answer: why do rivers bend?' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const deltas: Reasoned[] = [];
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const c of stream) {
      if (c.choices[0]) deltas.push(c.choices[0].delta as Reasoned);
      if (c.usage) usage = c.usage;
    }
    const lastReasoning = deltas.map((d) => !!d.reasoning_content).lastIndexOf(true);
    const firstContent = deltas.findIndex((d) => d.content);
    expect(lastReasoning).toBeGreaterThanOrEqual(0);
    expect(lastReasoning).toBeLessThan(firstContent);
    expect(usage!.completion_tokens_details!.reasoning_tokens).toBeGreaterThan(0);

    const entries = await eventually(
      () => admin.call<Entry[]>('GET', `/accounts/${accountId}/usage`),
      (r) => r.body.length === 1,
    );
    expect(entries.body[0]).toMatchObject({ input_tokens: usage!.prompt_tokens, output_tokens: usage!.completion_tokens });
  });

  it('reports cached_tokens for a repeated prefix, billed at the cached price', async () => {
    const { accountId, key } = await admin.fundedKey(5);
    const keyed = new OpenAI({ baseURL: stack.baseURL, apiKey: key, maxRetries: 0 });
    const history: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: 'system', content: `You analyse this contract: ${'clause '.repeat(300)}` },
      { role: 'user', content: 'What is the term?' },
    ];
    const first = await keyed.chat.completions.create({ model: MODEL, messages: history });
    expect(first.usage!.prompt_tokens_details!.cached_tokens).toBe(0);
    const follow = await keyed.chat.completions.create({
      model: MODEL,
      messages: [
        ...history,
        { role: 'assistant', content: first.choices[0].message.content },
        { role: 'user', content: 'And the notice period?' },
      ],
    });
    const u = follow.usage!;
    const cached = u.prompt_tokens_details!.cached_tokens!;
    expect(cached).toBe(first.usage!.prompt_tokens - 3); // both earlier messages; 3 = the reply priming

    const entries = await eventually(
      () => admin.call<Entry[]>('GET', `/accounts/${accountId}/usage`),
      (r) => r.body.length === 2,
    );
    const warm = entries.body.find((e) => e.cached_input_tokens > 0)!;
    expect(warm).toMatchObject({ cached_input_tokens: cached, input_tokens: u.prompt_tokens, output_tokens: u.completion_tokens });
    expect(warm.cost_micros).toBe(
      Math.ceil(((u.prompt_tokens - cached) * PRICES.input + cached * PRICES.cached + u.completion_tokens * PRICES.output) / 1e6),
    );
    const uncachedCost = Math.ceil((u.prompt_tokens * PRICES.input + u.completion_tokens * PRICES.output) / 1e6);
    expect(warm.cost_micros).toBeLessThan(uncachedCost);
  });

  it('answers JSON valid against a json_schema', async () => {
    const schema = {
      type: 'object',
      properties: {
        city: { type: 'string' },
        days: { type: 'integer', minimum: 1, maximum: 14 },
        budget: { type: 'number', minimum: 100, maximum: 5000 },
        tags: { type: 'array', items: { type: 'string' }, minItems: 2 },
        kind: { enum: ['beach', 'mountain'] },
      },
      required: ['city', 'days', 'budget', 'tags', 'kind'],
      additionalProperties: false,
    };
    const r = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'A holiday plan as JSON.' }],
      response_format: { type: 'json_schema', json_schema: { name: 'plan', schema, strict: true } },
    });
    const value = JSON.parse(r.choices[0].message.content!);
    expect(z.fromJSONSchema(schema as never).safeParse(value).success).toBe(true);
  });

  it('gives n=2 two different choices, streamed under their own indices too', async () => {
    const messages = [{ role: 'user' as const, content: 'Two slogans, please.' }];
    const r = await client.chat.completions.create({ model: MODEL, messages, n: 2 });
    expect(r.choices.map((c) => c.index)).toEqual([0, 1]);
    expect(r.choices[0].message.content).not.toBe(r.choices[1].message.content);
    const text = ['', ''];
    for await (const c of await client.chat.completions.create({ model: MODEL, messages, n: 2, stream: true })) {
      for (const ch of c.choices) text[ch.index] += ch.delta.content ?? '';
    }
    expect(text).toEqual(r.choices.map((c) => c.message.content));
  });

  it('holds a bounded worst case without max_tokens, so a modest balance still works', async () => {
    // The whole window as output would hold about $2.62; the rule's 131,072-token cap holds about $0.33.
    const { accountId, key } = await admin.fundedKey(0.5);
    const keyed = new OpenAI({ baseURL: stack.baseURL, apiKey: key, maxRetries: 0 });
    const r = await keyed.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hello' }] });
    expect(r.choices[0].message.content!.length).toBeGreaterThan(0);
    await eventually(
      () => admin.account(accountId),
      (a) => a.reserved_usd === 0 && a.balance_usd < 0.5,
    );
  });

  describe('rules: 400 invalid_request_error naming the field, before any hold or upstream call', () => {
    const tools = [
      { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } } },
    ];
    const user = (text: string) => [{ role: 'user', content: text }];
    const cases: Array<[string, Record<string, unknown>, string, string?]> = [
      ['reasoning_effort other than max', { reasoning_effort: 'high' }, 'reasoning_effort'],
      ['tool_choice of an unknown form', { tools, tool_choice: 'sometimes' }, 'tool_choice'],
      ['tool_choice object without a function name', { tools, tool_choice: { type: 'function' } }, 'tool_choice.function'],
      ['tool_choice naming an undeclared tool', { tools, tool_choice: { type: 'function', function: { name: 'search' } } }, 'tool_choice'],
      ['tool_choice required without tools', { tool_choice: 'required' }, 'tool_choice'],
      ['response_format of an unknown type', { response_format: { type: 'xml' } }, 'response_format.type'],
      ['json_schema without the json_schema object', { response_format: { type: 'json_schema' } }, 'response_format.json_schema'],
      [
        'json_schema without a schema',
        { response_format: { type: 'json_schema', json_schema: { name: 'x' } } },
        'response_format.json_schema.schema',
      ],
      ['n of zero', { n: 0 }, 'n'],
      ['n not an integer', { n: 1.5 }, 'n'],
    ];

    it.each(cases)('rejects %s', async (_label, extra, param) => {
      const { accountId, key } = await admin.fundedKey(1);
      const keyed = new OpenAI({ baseURL: stack.baseURL, apiKey: key, maxRetries: 0 });
      const marker = `rule-marker-${Math.random().toString(36).slice(2)}`;
      const err = await keyed.chat.completions.create({ model: MODEL, messages: user(marker), ...extra } as never).catch((e) => e);
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      expect(err.type).toBe('invalid_request_error');
      expect(err.param).toBe(param);
      expect(err.message).toContain(param.split('.')[0]);
      expect(await (await fetch(`${stack.simUrl}/_sim/requests`)).text()).not.toContain(marker);
      expect(await admin.account(accountId)).toMatchObject({ balance_usd: 1, reserved_usd: 0 });
    });

    it('rejects a prompt over 1,048,576 tokens with context_length_exceeded', async () => {
      const err = await client.chat.completions
        .create({ model: MODEL, messages: [{ role: 'user', content: 'a '.repeat(1_048_576) }] })
        .catch((e) => e);
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      expect(err.code).toBe('context_length_exceeded');
      expect(err.param).toBe('messages');
    });

    it('accepts the allowed forms', async () => {
      for (const extra of [
        { tools, tool_choice: 'auto' },
        { tools, tool_choice: 'none' },
        { tools, tool_choice: { type: 'function', function: { name: 'lookup' } } },
        { response_format: { type: 'json_object' } },
      ]) {
        const r = await client.chat.completions.create({ model: MODEL, messages: user('allowed'), ...extra } as never);
        expect(r.choices.length).toBe(1);
      }
    });
  });
}
