/**
 * chat completions → the Responses API and back: a chat client on a model served only over the
 * Responses API. Streams replay the native client's recorded-shape fixture through the SSE reader.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  GatewayError,
  responsesRequestSchema,
  responsesStreamEventSchema,
  type ChatCompletionChunk,
  type ChatCompletionRequest,
  type ResponsesResponse,
  type ResponsesStreamEvent,
} from '@unigate/contracts';
import { readSse } from '../../sse/sse-reader';
import { chatToResponsesRequest, responsesEventsToChatChunks, responsesToChatResponse } from '.';

async function* toAsync<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}

async function* events(name: string): AsyncGenerator<ResponsesStreamEvent> {
  const text = readFileSync(join(__dirname, '../../openai-responses/__fixtures__', `${name}.sse.txt`), 'utf8');
  for await (const ev of readSse(toAsync([text]))) {
    const parsed = responsesStreamEventSchema.safeParse(JSON.parse(ev.data));
    if (parsed.success) yield parsed.data; // the fixture carries events the native client skips
  }
}

describe('chatToResponsesRequest', () => {
  it('translates a conversation with tools and the settings that have a Responses form', () => {
    const chat: ChatCompletionRequest = {
      model: 'delta-5',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image_url', image_url: { url: 'https://x/a.png' } },
          ],
        },
        {
          role: 'assistant',
          content: 'Let me look.',
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'zoom', arguments: '{"x":1}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'a cat' },
      ],
      tools: [{ type: 'function', function: { name: 'zoom', description: 'Zoom in', parameters: { type: 'object' } } }],
      tool_choice: { type: 'function', function: { name: 'zoom' } },
      max_completion_tokens: 300,
      temperature: 0.2,
      reasoning_effort: 'low',
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' } } },
      stop: ['END'],
      seed: 4,
    };
    const req = chatToResponsesRequest(chat, { model: 'gpt-5-codex' });
    expect(responsesRequestSchema.parse(req)).toEqual(req);
    expect(req).toEqual({
      model: 'gpt-5-codex',
      store: false,
      input: [
        { type: 'message', role: 'system', content: 'Be brief.' },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is in this picture?' },
            { type: 'input_image', image_url: 'https://x/a.png', detail: 'auto' },
          ],
        },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Let me look.' }] },
        { type: 'function_call', call_id: 'call_1', name: 'zoom', arguments: '{"x":1}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'a cat' },
      ],
      tools: [{ type: 'function', name: 'zoom', description: 'Zoom in', parameters: { type: 'object' }, strict: false }],
      tool_choice: { type: 'function', name: 'zoom' },
      max_output_tokens: 300,
      temperature: 0.2,
      reasoning: { effort: 'low' },
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' } } },
    });
  });

  it('refuses what the Responses API cannot take, naming it', () => {
    const err = (chat: Partial<ChatCompletionRequest>) => {
      try {
        chatToResponsesRequest({ model: 'm', messages: [{ role: 'user', content: 'hi' }], ...chat }, { model: 'm' });
      } catch (e) {
        return e;
      }
      return undefined;
    };
    expect(err({ n: 2 })).toMatchObject({ status: 400, param: 'n' });
    const audio = err({ messages: [{ role: 'user', content: [{ type: 'audio_url', audio_url: { url: 'https://x/a.mp3' } }] }] });
    expect(audio).toBeInstanceOf(GatewayError);
    expect(audio).toMatchObject({ param: 'messages[0].content[0].type' });
  });
});

describe('Responses answers → chat', () => {
  it('translates a response: text, reasoning summary, namespaced and custom calls, status and usage', () => {
    const res: ResponsesResponse = {
      id: 'resp_1',
      object: 'response',
      created_at: 1700000000,
      status: 'completed',
      model: 'gpt-5-codex',
      output: [
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Check the file.' }] },
        { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Reading.' }] },
        { type: 'function_call', call_id: 'c1', name: 'close_agent', namespace: 'agents', arguments: '{}' },
        { type: 'custom_tool_call', call_id: 'c2', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'web_search_call', id: 'ws_1', status: 'completed' },
      ],
      usage: {
        input_tokens: 50,
        input_tokens_details: { cached_tokens: 20 },
        output_tokens: 30,
        output_tokens_details: { reasoning_tokens: 10 },
        total_tokens: 80,
      },
    };
    expect(responsesToChatResponse(res, { model: 'delta-5' })).toEqual({
      id: 'resp_1',
      object: 'chat.completion',
      created: 1700000000,
      model: 'delta-5',
      choices: [
        {
          index: 0,
          logprobs: null,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: 'Reading.',
            refusal: null,
            reasoning_content: 'Check the file.',
            tool_calls: [
              { id: 'c1', type: 'function', function: { name: 'agents__close_agent', arguments: '{}' } },
              { id: 'c2', type: 'function', function: { name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' } },
            ],
          },
        },
      ],
      usage: {
        prompt_tokens: 50,
        completion_tokens: 30,
        total_tokens: 80,
        prompt_tokens_details: { cached_tokens: 20 },
        completion_tokens_details: { reasoning_tokens: 10 },
      },
    });
    const cut = responsesToChatResponse(
      { ...res, output: [], status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
      { model: 'm' },
    );
    expect(cut.choices[0].finish_reason).toBe('length');
  });

  it('streams chunks: the role, the text, the finish and the usage', async () => {
    const chunks: ChatCompletionChunk[] = [];
    for await (const c of responsesEventsToChatChunks(events('text'), { model: 'delta-5', created: 1 })) chunks.push(c);
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('High tide is at noon.');
    expect(chunks.at(-2)!.choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({
      id: 'resp_68a2',
      model: 'delta-5',
      choices: [],
      usage: { prompt_tokens: 40, completion_tokens: 9 },
    });
  });

  it('fails on an error event', async () => {
    const consume = async () => {
      for await (const _ of responsesEventsToChatChunks(events('error-event'), { model: 'm' })) void _;
    };
    await expect(consume()).rejects.toMatchObject({ status: 502 });
  });
});
