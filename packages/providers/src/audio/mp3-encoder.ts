/**
 * WAV → MP3 with lamejs (pure JavaScript LAME), frame by frame as the WAV arrives, so the first bytes
 * go out before the whole file is fetched, and a long file is never held whole (minutes of audio are
 * tens of MB: held and copied whole, they kept the garbage collector busy enough to stall the process
 * 60–110 ms per request). The package's CommonJS entry is a browser IIFE that exports nothing under
 * require(), so its bundle is evaluated once and its global taken.
 */
import { readFileSync } from 'node:fs';
import type { Mp3Encoder as Mp3EncoderType } from '@breezystack/lamejs';
import { cpuTurns } from '../cpu-turns';
import { WavFormatError, WavReader } from './wav';

type Lame = { Mp3Encoder: typeof Mp3EncoderType };
let lame: Lame | undefined;
function lamejs(): Lame {
  lame ??= new Function(`${readFileSync(require.resolve('@breezystack/lamejs'), 'utf8')}\nreturn lamejs;`)() as Lame;
  return lame;
}

/**
 * Evaluates the encoder's bundle now (half a second on a busy machine): done when a service starts,
 * not on its first speech request, where it would stall every other request of the process.
 */
export function loadMp3Encoder(): void {
  lamejs();
}

const FRAME = 1152;
/**
 * How long encoding runs before it hands control back (each piece is followed by a turn of the event
 * loop). LAME in JavaScript takes ~6 ms per 8 frames once the JIT has it and 15–20 ms per frame
 * before: pieces of a fixed frame count kept the first speech request of a process from every other
 * request for 100–400 ms (measured on 2 shared cores). A time budget keeps every stall near one frame.
 */
export const MP3_SLICE_MS = 5;

export interface Mp3Options {
  kbps?: number;
  /** Time budget of a piece (default MP3_SLICE_MS). */
  sliceMs?: number;
  /** Awaited after each piece (default: the process's CPU turns). */
  turn?: () => Promise<void>;
  /** The clock the budget is kept on (tests pass their own). */
  now?: () => number;
}

/** lamejs answers each call with a new Int8Array: the same bytes, read unsigned (no copy). */
const unsigned = (bytes: Int8Array | Uint8Array) => new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * The MP3 of the WAV file `wav` brings, as it comes: encoded in slices of about `sliceMs`, each
 * followed by `turn()` (other I/O, other encodes), and handed out as the slices produce bytes. Setting
 * up the encoder (10–40 ms, more the first time in a process) is a slice of its own. Throws
 * WavFormatError, before any byte, when `wav` is not 16-bit PCM.
 */
export async function* wavToMp3(wav: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, opts: Mp3Options = {}): AsyncGenerator<Uint8Array> {
  const { kbps = 64, sliceMs = MP3_SLICE_MS, turn = () => cpuTurns.next(), now = () => performance.now() } = opts;
  const reader = new WavReader();
  let encoder: InstanceType<Lame['Mp3Encoder']> | undefined;
  let parts: Uint8Array[] = [];
  let started = now();
  for await (const bytes of wav) {
    const samples = reader.push(bytes);
    if (!reader.format) continue;
    const { channels, sampleRate } = reader.format;
    if (!encoder) {
      encoder = new (lamejs().Mp3Encoder)(channels, sampleRate, kbps);
      await turn();
      started = now();
    }
    for (let at = 0; at < samples.length; at += FRAME * channels) {
      const out = encodeFrames(encoder, channels, samples.subarray(at, at + FRAME * channels));
      if (out.length) parts.push(unsigned(out));
      if (now() - started >= sliceMs) {
        if (parts.length) yield Buffer.concat(parts);
        parts = [];
        await turn();
        started = now();
      }
    }
  }
  if (!encoder) throw new WavFormatError('the file ended before its audio data');
  const tail = encoder.flush();
  if (tail.length) parts.push(unsigned(tail));
  if (parts.length) yield Buffer.concat(parts);
}

/** Interleaved samples (at most one MPEG frame's) through the encoder. */
function encodeFrames(encoder: InstanceType<Lame['Mp3Encoder']>, channels: number, samples: Int16Array): Int8Array | Uint8Array {
  if (channels === 1) return encoder.encodeBuffer(samples);
  const left = new Int16Array(samples.length / 2);
  const right = new Int16Array(samples.length / 2);
  for (let i = 0; i < left.length; i++) {
    left[i] = samples[i * 2];
    right[i] = samples[i * 2 + 1];
  }
  return encoder.encodeBuffer(left, right);
}
