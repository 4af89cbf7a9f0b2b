/**
 * WAV → MP3 as the WAV arrives: each piece of samples is encoded on the process's MP3 thread
 * (mp3-thread.ts) while the event loop serves other requests, and its bytes go out before the rest
 * of the file is fetched. A long file is never held whole (minutes of audio are tens of MB: held and
 * copied whole, they kept the garbage collector busy enough to stall the process 60–110 ms per request).
 */
import { mp3Thread, type Mp3Session, type Mp3Thread } from './mp3-thread';
import { WavFormatError, WavReader } from './wav';

/** Samples per channel in an MPEG-1 layer III frame: what the thread is sent at a time, at least. */
const FRAME = 1152;

export interface Mp3Options {
  kbps?: number;
  /** The thread that encodes (default: the process's). */
  thread?: Mp3Thread;
}

/**
 * The MP3 of the WAV file `wav` brings, as it comes. Throws WavFormatError, before any byte, when
 * `wav` is not 16-bit PCM. Abandoned (the consumer stops), it frees its encoder on the thread.
 */
export async function* wavToMp3(wav: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, opts: Mp3Options = {}): AsyncGenerator<Uint8Array> {
  const { kbps = 64, thread = mp3Thread } = opts;
  const reader = new WavReader();
  let session: Mp3Session | undefined;
  // Samples wait here until there is a frame's worth: an upstream that trickles its bytes would
  // otherwise cost a round trip to the thread per sample.
  let waiting: Int16Array[] = [];
  let waitingLength = 0;
  const take = () => {
    let all = waiting[0];
    if (waiting.length > 1) {
      all = new Int16Array(waitingLength);
      let at = 0;
      for (const part of waiting) {
        all.set(part, at);
        at += part.length;
      }
    }
    waiting = [];
    waitingLength = 0;
    return all;
  };
  try {
    for await (const bytes of wav) {
      const samples = reader.push(bytes);
      if (!reader.format) continue;
      session ??= await thread.open(reader.format.channels, reader.format.sampleRate, kbps);
      if (samples.length === 0) continue;
      waiting.push(samples);
      waitingLength += samples.length;
      if (waitingLength < FRAME * reader.format.channels) continue;
      const out = await session.encode(take());
      if (out.length) yield out;
    }
    if (!session) throw new WavFormatError('the file ended before its audio data');
    if (waitingLength > 0) {
      const out = await session.encode(take());
      if (out.length) yield out;
    }
    const tail = await session.flush();
    if (tail.length) yield tail;
  } finally {
    session?.close();
  }
}
