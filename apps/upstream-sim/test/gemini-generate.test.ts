/** The simulator's Gemini generateContent endpoint, spoken to as a Gemini client would (raw HTTP). */
import { countTextTokens } from '@unigate/contracts';
import { readSse } from '@unigate/providers';
import { createSimulator, type Simulator } from '../src';
import { json } from './chat-adapter';

// Response bodies here are whatever the simulator sent; tests inspect them loosely.
type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any
let sim: Simulator;

beforeAll(async () => {
  sim = await createSimulator({ tokenDelayMs: 1 });
});
afterAll(() => sim.close());
afterEach(() => fetch(`${sim.url}/_sim/faults`, { method: 'DELETE' }));

const MODEL = 'gamma-2.5-flash';
const user = (text: string) => ({ contents: [{ role: 'user', parts: [{ text }] }] });

function post(method: string, body: unknown, model = MODEL, query = ''): Promise<Response> {
  return fetch(`${sim.url}/v1beta/models/${model}:${method}${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': 'AIza-test' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function generate(body: unknown, model = MODEL): Promise<Body> {
  const res = await post('generateContent', body, model);
  expect(res.status).toBe(200);
  return res.json();
}

async function streamEvents(body: unknown, model = MODEL): Promise<{ res: Response; chunks: Body[] }> {
  const res = await post('streamGenerateContent', body, model, '?alt=sse');
  const chunks: Body[] = [];
  for await (const ev of readSse(res.body as unknown as AsyncIterable<Uint8Array>)) chunks.push(JSON.parse(ev.data));
  return { res, chunks };
}

const text = (parts: Body[], thought = false) =>
  parts
    .filter((p) => !!p.thought === thought && typeof p.text === 'string')
    .map((p) => p.text)
    .join('');

const weather = {
  functionDeclarations: [
    {
      name: 'get_weather',
      description: 'Weather for a city',
      parametersJsonSchema: {
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 3 } },
        required: ['city', 'days'],
      },
    },
  ],
};

describe('POST /v1beta/models/{model}:generateContent', () => {
  it('answers deterministically in the GenerateContentResponse shape with exact usageMetadata', async () => {
    const a = await generate({ ...user('Tell me about rivers.'), generationConfig: { temperature: 1.5 } });
    const b = await generate(user('Tell me about rivers.'));
    expect(a).toMatchObject({ modelVersion: MODEL, responseId: expect.any(String) });
    expect(a.candidates).toHaveLength(1);
    const [c] = a.candidates;
    expect(c).toMatchObject({ index: 0, finishReason: 'STOP', content: { role: 'model' } });
    const answer = text(c.content.parts);
    expect(text(b.candidates[0].content.parts)).toBe(answer);
    expect(a.usageMetadata).toEqual({
      promptTokenCount: 3 + 3 + 5,
      candidatesTokenCount: countTextTokens(answer),
      totalTokenCount: 11 + countTextTokens(answer),
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: 11 }],
    });
  });

  it('stops at maxOutputTokens with MAX_TOKENS and honours stopSequences', async () => {
    const capped = await generate({ ...user('long please'), generationConfig: { maxOutputTokens: 5 } });
    expect(capped.candidates[0].finishReason).toBe('MAX_TOKENS');
    expect(capped.usageMetadata.candidatesTokenCount).toBe(5);
    const full = text((await generate(user('stop test'))).candidates[0].content.parts);
    const stop = full.split(' ')[3];
    const stopped = await generate({ ...user('stop test'), generationConfig: { stopSequences: [stop] } });
    expect(text(stopped.candidates[0].content.parts)).toBe(full.slice(0, full.indexOf(stop)));
  });

  it('thinks when asked: thought parts with includeThoughts, counted in thoughtsTokenCount either way', async () => {
    const plain = await generate(user('Think about tides.'));
    const shown = await generate({ ...user('Think about tides.'), generationConfig: { thinkingConfig: { includeThoughts: true } } });
    const hidden = await generate({ ...user('Think about tides.'), generationConfig: { thinkingConfig: { thinkingBudget: 1024 } } });
    const parts = shown.candidates[0].content.parts;
    expect(parts[0].thought).toBe(true);
    const thoughts = text(parts, true);
    expect(shown.usageMetadata.thoughtsTokenCount).toBe(countTextTokens(thoughts));
    expect(text(parts)).toBe(text(plain.candidates[0].content.parts));
    expect(plain.usageMetadata.thoughtsTokenCount).toBeUndefined();
    expect(hidden.candidates[0].content.parts.some((p: Body) => p.thought)).toBe(false);
    expect(hidden.usageMetadata.thoughtsTokenCount).toBe(shown.usageMetadata.thoughtsTokenCount);
    expect(hidden.usageMetadata.totalTokenCount).toBe(
      hidden.usageMetadata.promptTokenCount + hidden.usageMetadata.candidatesTokenCount + hidden.usageMetadata.thoughtsTokenCount,
    );
  });

  it('calls a declared function with schema-valid args, then answers the functionResponse in text', async () => {
    const first = await generate({ ...user('Weather in Paris?'), tools: [weather] });
    const call = first.candidates[0].content.parts[0].functionCall;
    expect(first.candidates[0].finishReason).toBe('STOP');
    expect(call.name).toBe('get_weather');
    expect(call.args).toEqual({ city: 'Paris', days: expect.any(Number) });

    const second = await generate({
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
        { role: 'model', parts: [{ functionCall: call }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp_c: 21 } } }] },
      ],
      tools: [weather],
    });
    expect(text(second.candidates[0].content.parts)).toMatch(/^The tool returned: "\{"temp_c":21\}"/);

    const none = await generate({
      ...user('Weather in Paris?'),
      tools: [weather],
      toolConfig: { functionCallingConfig: { mode: 'NONE' } },
    });
    expect(none.candidates[0].content.parts[0].functionCall).toBeUndefined();
    const unknown = await post('generateContent', {
      ...user('x'),
      tools: [weather],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['nope'] } },
    });
    expect(unknown.status).toBe(400);
    expect((await json(unknown)).error.status).toBe('INVALID_ARGUMENT');
  });

  it('answers JSON under responseMimeType, valid against responseJsonSchema or an OpenAPI responseSchema', async () => {
    const loose = await generate({ ...user('a cat'), generationConfig: { responseMimeType: 'application/json' } });
    expect(() => JSON.parse(text(loose.candidates[0].content.parts))).not.toThrow();
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0, maximum: 30 } },
      required: ['name', 'age'],
    };
    const strict = await generate({
      ...user('a cat'),
      generationConfig: { responseMimeType: 'application/json', responseJsonSchema: schema },
    });
    expect(JSON.parse(text(strict.candidates[0].content.parts))).toEqual({ name: 'Alice', age: expect.any(Number) });
    const openApi = { type: 'OBJECT', properties: { tags: { type: 'ARRAY', items: { type: 'STRING' } } }, required: ['tags'] };
    const upper = await generate({ ...user('a cat'), generationConfig: { responseMimeType: 'application/json', responseSchema: openApi } });
    const tags = JSON.parse(text(upper.candidates[0].content.parts)).tags;
    expect(Array.isArray(tags) && tags.every((t: unknown) => typeof t === 'string')).toBe(true);
  });

  it('gives candidateCount different candidates', async () => {
    const r = await generate({ ...user('two takes'), generationConfig: { candidateCount: 2 } });
    expect(r.candidates.map((c: Body) => c.index)).toEqual([0, 1]);
    expect(text(r.candidates[0].content.parts)).not.toBe(text(r.candidates[1].content.parts));
  });

  it('reports implicit caching for a repeated prefix of at least 1,024 tokens', async () => {
    const long = `${'harbor light '.repeat(600)}end`;
    const first = await generate({
      contents: [
        { role: 'user', parts: [{ text: long }] },
        { role: 'model', parts: [{ text: 'ok' }] },
        { role: 'user', parts: [{ text: 'q1' }] },
      ],
    });
    expect(first.usageMetadata.cachedContentTokenCount).toBeUndefined();
    const second = await generate({
      contents: [
        { role: 'user', parts: [{ text: long }] },
        { role: 'model', parts: [{ text: 'ok' }] },
        { role: 'user', parts: [{ text: 'q2' }] },
      ],
    });
    // The shared prefix: the long user turn (3 + 1201 tokens) and the model turn (3 + 1).
    expect(second.usageMetadata.cachedContentTokenCount).toBe(3 + 1201 + 3 + 1);
    const small = user('short prefix');
    await generate(small);
    expect((await generate(small)).usageMetadata.cachedContentTokenCount).toBeUndefined();
  });

  it('rejects bad requests in Gemini error shape', async () => {
    const empty = await post('generateContent', { contents: [] });
    expect(empty.status).toBe(400);
    expect(await json(empty)).toEqual({
      error: { code: 400, message: expect.stringMatching(/contents is not specified/), status: 'INVALID_ARGUMENT' },
    });
    const broken = await post('generateContent', '{"contents":');
    expect(broken.status).toBe(400);
    expect((await json(broken)).error.status).toBe('INVALID_ARGUMENT');
    const badMax = await post('generateContent', { ...user('x'), generationConfig: { maxOutputTokens: 0 } });
    expect((await json(badMax)).error.message).toMatch(/max_output_tokens must be positive/);
    const method = await post('countTokenz', user('x'));
    expect(method.status).toBe(404);
    expect((await json(method)).error.status).toBe('NOT_FOUND');
  });
});

describe('POST /v1beta/models/{model}:streamGenerateContent', () => {
  it('streams SSE chunks, each a whole response, with no [DONE] and the same text as generateContent', async () => {
    const body = { ...user('Stream me a story.'), generationConfig: { thinkingConfig: { includeThoughts: true } } };
    const whole = await generate(body);
    const { res, chunks } = await streamEvents(body);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(chunks.length).toBeGreaterThan(3);
    const parts = chunks.flatMap((c) => c.candidates[0].content.parts);
    expect(text(parts, true)).toBe(text(whole.candidates[0].content.parts, true));
    expect(text(parts)).toBe(text(whole.candidates[0].content.parts));
    expect(chunks.slice(0, -1).every((c) => c.candidates[0].finishReason === undefined)).toBe(true);
    const last = chunks[chunks.length - 1];
    expect(last.candidates[0].finishReason).toBe('STOP');
    expect(last.usageMetadata).toEqual(whole.usageMetadata);
    expect(chunks.every((c) => c.responseId === chunks[0].responseId && c.usageMetadata.promptTokenCount > 0)).toBe(true);
  });

  it('sends a function call whole in the closing chunk', async () => {
    const { chunks } = await streamEvents({ ...user('Weather in Rome?'), tools: [weather] });
    expect(chunks).toHaveLength(1);
    expect(chunks[0].candidates[0]).toMatchObject({
      finishReason: 'STOP',
      content: { parts: [{ functionCall: { name: 'get_weather' } }] },
    });
  });

  it('answers one JSON array without alt=sse', async () => {
    const res = await post('streamGenerateContent', user('array please'));
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const chunks = (await json(res)) as Body[];
    expect(Array.isArray(chunks)).toBe(true);
    expect(chunks[chunks.length - 1].candidates[0].finishReason).toBe('STOP');
  });
});

describe('fault injection on the Gemini endpoint', () => {
  const fault = (rule: unknown) =>
    fetch(`${sim.url}/_sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rule) });

  it('answers a fault status in Gemini error shape, matched by the model in the path', async () => {
    await fault({ match: { model: 'gamma-2.5-pro' }, status: 429, count: 1 });
    expect((await post('generateContent', user('x'))).status).toBe(200); // other model
    const res = await post('generateContent', user('x'), 'gamma-2.5-pro');
    expect(res.status).toBe(429);
    expect(await json(res)).toEqual({ error: { code: 429, message: expect.any(String), status: 'RESOURCE_EXHAUSTED' } });
    expect((await post('generateContent', user('x'), 'gamma-2.5-pro')).status).toBe(200);
  });

  it('matches the path without its query and cuts a stream after n chunks', async () => {
    await fault({ match: { path: `/v1beta/models/${MODEL}:streamGenerateContent` }, cut_after_chunks: 2, count: 1 });
    const res = await post('streamGenerateContent', user('Stream me a long story please.'), MODEL, '?alt=sse');
    const got: string[] = [];
    const err = await (async () => {
      for await (const ev of readSse(res.body as unknown as AsyncIterable<Uint8Array>)) got.push(ev.data);
    })().catch((e) => e);
    expect(got).toHaveLength(2);
    expect((err as Error | undefined)?.message).toBe('terminated'); // the socket was destroyed mid-body
  });
});
