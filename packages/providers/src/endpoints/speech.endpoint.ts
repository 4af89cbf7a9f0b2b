/**
 * audio.speech on the service side: synthesise upstream, fetch the audio it links to (SSRF-guarded:
 * only the channel's own origin is trusted), and stream it — as it comes for WAV, re-encoded frame
 * by frame for MP3. Characters are charged once the first audio byte is on its way, never for a
 * call that failed before.
 */
import { characterCount, errors, speechFormat, speechSpec, speechVoice, type SpeechRequest, type Usage } from '@unigate/contracts';
import type { MeasuredStream, ServiceEndpoint } from '../adapter';
import { wavToMp3 } from '../audio/mp3-encoder';
import { WavFormatError } from '../audio/wav';
import { synthesize } from '../dashscope/dashscope-tts';
import { safeFetch } from '../http/safe-fetch';

/** The largest audio file fetched from an upstream's link (a 4,096-character WAV is ~15 MB). */
export const MAX_AUDIO_BYTES = 64 * 1024 * 1024;
const AUDIO_FETCH_TIMEOUT_MS = 120_000;

export const speechEndpoint: ServiceEndpoint<SpeechRequest, never, Uint8Array> = {
  spec: speechSpec,
  adapter(protocol, http) {
    if (protocol !== 'dashscope') return undefined;
    return {
      call: () => Promise.reject(errors.invalidRequest('speech is answered as a stream of audio bytes', null, 'unsupported_call')),
      stream(channel, req, ctx): MeasuredStream<Uint8Array> {
        let usage: Usage = {};
        async function* audio(): AsyncGenerator<Uint8Array> {
          const voice = speechVoice(ctx.model, req);
          const format = speechFormat(ctx.model, req);
          const answer = await synthesize(http, channel, { text: req.input, voice, instructions: req.instructions }, ctx.signal);
          const fetched = await safeFetch(answer.audioUrl, {
            trustedOrigins: [new URL(channel.base_url).origin],
            signal: ctx.signal,
            maxBytes: MAX_AUDIO_BYTES,
            timeoutMs: AUDIO_FETCH_TIMEOUT_MS,
          });
          const charge = { characters: answer.characters ?? characterCount(req.input) };
          if (format === 'wav') {
            for await (const piece of fetched.body) {
              usage = charge;
              yield piece;
            }
            return;
          }
          try {
            for await (const piece of wavToMp3(fetched.body)) {
              usage = charge;
              yield piece;
            }
          } catch (err) {
            if (err instanceof WavFormatError)
              throw errors.upstream(502, `upstream audio is not 16-bit PCM WAV (${err.message}); it cannot be converted to mp3`, true);
            throw err;
          }
        }
        return Object.assign(audio(), { usage: () => usage });
      },
    };
  },
};
