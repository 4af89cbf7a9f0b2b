/**
 * Real WAV audio whose length follows the text: one short tone per character (its pitch from the
 * character), 16-bit PCM mono at 24 kHz as the alpha3 TTS upstream produces.
 */
import { Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';

export const TTS_SAMPLE_RATE = 24_000;
/** Seconds of audio per character synthesised. */
export const SECONDS_PER_CHAR = 0.06;

/** Samples made at a time: a quarter of a second, 1–2 ms of work (a second's was ~9 ms on a busy core). */
const PIECE_SECONDS = 0.25;

/**
 * Real WAV audio in pieces (the header, then a quarter of a second of samples each), for a reply
 * that streams: minutes of audio for a long text are made as the client reads, never in one long
 * block of a process the simulator may share with the gateway (standalone's).
 */
export function* speechWavChunks(text: string, sampleRate = TTS_SAMPLE_RATE): Generator<Buffer> {
  const chars = [...text];
  const perChar = Math.round(sampleRate * SECONDS_PER_CHAR);
  const samples = Math.max(perChar * chars.length, Math.round(sampleRate * 0.2));
  yield wavHeader(samples * 2, sampleRate);
  // Radians per sample of each character's tone (silence for whitespace).
  const steps = (chars.length > 0 ? chars : [' ']).map((ch) =>
    /\s/.test(ch) ? 0 : (2 * Math.PI * (180 + ((ch.codePointAt(0) ?? 0) % 40) * 12)) / sampleRate,
  );
  const piece = Math.round(sampleRate * PIECE_SECONDS);
  for (let from = 0; from < samples; from += piece) {
    const to = Math.min(samples, from + piece);
    const pcm = Buffer.alloc((to - from) * 2);
    const out = new Int16Array(pcm.buffer, pcm.byteOffset, to - from);
    for (let i = from; i < to; i++)
      out[i - from] = Math.round(Math.sin(steps[Math.min(steps.length - 1, Math.floor(i / perChar))] * i) * 9000);
    yield pcm;
  }
}

/**
 * The pieces as a stream that makes one piece per turn of the event loop. Piped to a socket that
 * takes everything at once (loopback), a stream of the generator itself was read in one synchronous
 * run until the kernel's buffer filled: ~150 ms of standalone's event loop at the start of every
 * long speech.
 */
export function speechWavStream(text: string, sampleRate = TTS_SAMPLE_RATE): Readable {
  async function* paced() {
    for (const piece of speechWavChunks(text, sampleRate)) {
      yield piece;
      await setImmediate();
    }
  }
  return Readable.from(paced(), { highWaterMark: 1 });
}

function wavHeader(dataBytes: number, sampleRate: number): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(dataBytes, 40);
  return h;
}
