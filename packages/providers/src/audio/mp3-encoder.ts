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
/** Frames per yielded piece: big enough to keep per-chunk overhead small, small enough to start fast. */
const FRAMES_PER_PIECE = 8;

export function* encodeMp3(pcm: PcmAudio, kbps = 64): Generator<Uint8Array> {
  const encoder = new (lamejs().Mp3Encoder)(pcm.channels, pcm.sampleRate, kbps);
  const frames = pcm.samples.length / pcm.channels;
  const step = FRAME * FRAMES_PER_PIECE;
  for (let at = 0; at < frames; at += step) {
    const end = Math.min(frames, at + step);
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
    if (out.length) yield Uint8Array.from(out);
  }
  const tail = encoder.flush();
  if (tail.length) yield Uint8Array.from(tail);
}
