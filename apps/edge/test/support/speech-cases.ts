/**
 * POST /v1/audio/speech (SPEC.md §2.8) with the official `openai` client: real audio streamed with
 * its content type (MP3 re-encoded by the gateway from the upstream's WAV, or the WAV itself), voice
 * fallback, per-character billing, and every rule with its bad input.
 */
import OpenAI from 'openai';
import { Admin } from './admin';
import { chargeOf, expectNothingCharged } from './media-billing';
import type { SimControl } from './sim-control';
import type { Stack } from './stacks';
import { json, openaiFor } from './use-stack';

const TTS_PATH = '/api/v1/services/aigc/multimodal-generation/generation';

/** An MP3 stream starts with an ID3 tag or a frame sync (11 set bits). */
const isMp3 = (b: Buffer) => b.subarray(0, 3).toString('latin1') === 'ID3' || (b[0] === 0xff && (b[1] & 0xe0) === 0xe0);
const isWav = (b: Buffer) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WAVE';

export function speechCases(ctx: () => { stack: Stack; client: OpenAI; admin: Admin; sim: SimControl }) {
  const post = (body: unknown, key = ctx().stack.apiKey) =>
    fetch(`${ctx().stack.baseURL}/audio/speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  describe('POST /v1/audio/speech', () => {
    it('streams MP3 by default (audio/mpeg), another vendor voice falling back to Cherry', async () => {
      const { client, sim } = ctx();
      const res = await client.audio.speech.create({ model: 'alpha3-tts-flash', voice: 'alloy', input: 'Hello harbour, 你好!' });
      expect(res.headers.get('content-type')).toBe('audio/mpeg');
      const mp3 = Buffer.from(await res.arrayBuffer());
      expect(isMp3(mp3)).toBe(true);
      expect(mp3.length).toBeGreaterThan(1000);
      const sent = await sim.lastTo(TTS_PATH);
      expect(sent!.body).toEqual({
        model: 'alpha3-tts-flash',
        input: { text: 'Hello harbour, 你好!', voice: 'Cherry', language_type: 'Auto' },
      });
    });

    it('answers WAV when asked, its length following the text', async () => {
      const { client } = ctx();
      const audio = async (input: string) => {
        const res = await client.audio.speech.create({ model: 'alpha3-tts-flash', voice: 'Ethan', input, response_format: 'wav' });
        expect(res.headers.get('content-type')).toBe('audio/wav');
        return Buffer.from(await res.arrayBuffer());
      };
      const short = await audio('Short.');
      const long = await audio('A much longer sentence about ships, tides and the harbour lights.');
      expect(isWav(short) && isWav(long)).toBe(true);
      expect(long.length).toBeGreaterThan(short.length * 5);
    });

    it('gives the instruct model its instructions and answers WAV, its only format', async () => {
      const { client, sim } = ctx();
      const res = await client.audio.speech.create({
        model: 'alpha3-tts-instruct-flash',
        voice: 'Cherry',
        input: 'Welcome aboard.',
        instructions: 'Speak slowly and warmly.',
        speed: 1.5,
      });
      expect(res.headers.get('content-type')).toBe('audio/wav');
      expect(isWav(Buffer.from(await res.arrayBuffer()))).toBe(true);
      const sent = await sim.lastTo(TTS_PATH);
      expect(sent!.body.input).toEqual({
        text: 'Welcome aboard.',
        voice: 'Cherry',
        language_type: 'Auto',
        instructions: 'Speak slowly and warmly.',
      });
    });

    it.each([
      ['empty input', { model: 'alpha3-tts-flash', input: '' }, 'input', 'invalid_value'],
      ['blank input', { model: 'alpha3-tts-flash', input: '   ' }, 'input', 'invalid_value'],
      ['no input', { model: 'alpha3-tts-flash' }, 'input', 'invalid_value'],
      ['an unknown voice', { model: 'alpha3-tts-flash', input: 'hi', voice: 'Zorg' }, 'voice', 'invalid_voice'],
      [
        'a format other than mp3 and wav',
        { model: 'alpha3-tts-flash', input: 'hi', response_format: 'opus' },
        'response_format',
        'unsupported_parameter',
      ],
      [
        'mp3 on the instruct model',
        { model: 'alpha3-tts-instruct-flash', input: 'hi', response_format: 'mp3' },
        'response_format',
        'unsupported_parameter',
      ],
      [
        'instructions on the flash model',
        { model: 'alpha3-tts-flash', input: 'hi', instructions: 'whisper' },
        'instructions',
        'unsupported_parameter',
      ],
      ['a model that is not a speech model', { model: 'zeta-4', input: 'hi' }, 'model', 'endpoint_model_mismatch'],
      ['a model the gateway does not know', { model: 'tts-1', input: 'Hi' }, 'model', 'endpoint_model_mismatch'],
    ])('answers %s with 400 in Shape B', async (_label, body, param, code) => {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(await json(res)).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error', code, param } });
    });

    it('charges per character in the ledger, and nothing when the upstream fails', async () => {
      const { stack, admin, sim } = ctx();
      const { accountId, key } = await admin.fundedKey(1);
      const input = 'Twelve chars'; // 12 characters
      const res = await post({ model: 'alpha3-tts-flash', input }, key);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      const entry = await chargeOf(admin, accountId, res.headers.get('x-request-id')!);
      expect(entry.model).toBe('alpha3-tts-flash');
      expect(entry.units).toMatchObject({ characters: 12 });
      // alpha3-tts-flash: $10 per million characters (docs/pricing.md).
      expect(entry.cost_micros).toBe(120);

      const failing = await admin.fundedKey(1);
      await sim.fault({ match: { model: 'alpha3-tts-flash', path: TTS_PATH }, status: 500, count: 1 });
      const failed = await openaiFor(stack, failing.key)
        .audio.speech.create({ model: 'alpha3-tts-flash', voice: 'Cherry', input: 'never spoken' })
        .catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(OpenAI.APIError);
      expect((failed as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
      await expectNothingCharged(admin, failing, 1);
    });
  });
}
