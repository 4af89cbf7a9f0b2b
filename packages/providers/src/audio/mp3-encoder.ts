/**
 * PCM → MP3 with lamejs (pure JavaScript LAME), frame by frame so the first bytes can go out
 * before the whole file is encoded. The package's CommonJS entry is a browser IIFE that exports
 * nothing under require(), so its bundle is evaluated once and its global taken.
 */
import { readFileSync } from 'node:fs';
import type { Mp3Encoder as Mp3EncoderType } from '@breezystack/lamejs';
import type { PcmAudio } from './wav';

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
  /** The clock the budget is kept on (tests pass their own). */
  now?: () => number;
}

/** lamejs answers each call with a new Int8Array: the same bytes, read unsigned (no copy). */
const unsigned = (bytes: Int8Array | Uint8Array) => new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * The MP3 of `pcm`, in pieces of about `sliceMs` of encoding each: the caller yields to the event
 * loop between pieces. A piece may be empty (the set-up's, or a slice whose frames LAME still holds):
 * yielded all the same, so that the caller still yields.
 */
export function* encodeMp3(pcm: PcmAudio, opts: Mp3Options = {}): Generator<Uint8Array> {
  const { kbps = 64, sliceMs = MP3_SLICE_MS, now = () => performance.now() } = opts;
  const encoder = new (lamejs().Mp3Encoder)(pcm.channels, pcm.sampleRate, kbps);
  // Setting up the encoder is a piece of its own (10–40 ms, more the first time in a process).
  yield new Uint8Array(0);
  const frames = pcm.samples.length / pcm.channels;
  let parts: Uint8Array[] = [];
  let started = now();
  for (let at = 0; at < frames; at += FRAME) {
    const end = Math.min(frames, at + FRAME);
    let out: Uint8Array;
    if (pcm.channels === 1) out = encoder.encodeBuffer(pcm.samples.subarray(at, end));
    else {
      const left = new Int16Array(end - at);
      const right = new Int16Array(end - at);
      for (let i = at; i < end; i++) {
        left[i - at] = pcm.samples[i * 2];
        right[i - at] = pcm.samples[i * 2 + 1];
      }
      out = encoder.encodeBuffer(left, right);
    }
    if (out.length) parts.push(unsigned(out));
    if (now() - started >= sliceMs) {
      yield Buffer.concat(parts);
      parts = [];
      started = now();
    }
  }
  const tail = encoder.flush();
  if (tail.length) parts.push(unsigned(tail));
  if (parts.length) yield Buffer.concat(parts);
}
