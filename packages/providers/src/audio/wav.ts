/** Reading a PCM WAV file (what TTS upstreams produce) far enough to re-encode it, as it arrives. */

export interface PcmFormat {
  sampleRate: number;
  channels: number;
}

export interface PcmAudio extends PcmFormat {
  /** Interleaved 16-bit samples. */
  samples: Int16Array;
}

/** The bytes are not a 16-bit PCM RIFF/WAVE file (mono or stereo). */
export class WavFormatError extends Error {}

/** The most header (every chunk before `data`) read before a file is judged not to be a WAV. */
const MAX_HEADER_BYTES = 64 * 1024;

/**
 * A WAV file read piece by piece as it arrives: its format once the header is in, then its samples,
 * whole sample frames at a time (a frame's bytes split across pieces wait for the rest). Holds at most
 * the header and one partial frame, so minutes of audio never sit in memory at once.
 */
export class WavReader {
  format?: PcmFormat;
  private header = Buffer.alloc(0);
  /** Bytes of a sample frame not complete yet. */
  private partial = Buffer.alloc(0);
  /** Data bytes still to come; undefined: to the end of the file (a streamed WAV's placeholder size). */
  private remaining?: number;

  /** The whole sample frames these bytes complete (empty while the header is still coming). Throws WavFormatError. */
  push(bytes: Uint8Array): Int16Array {
    let data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (!this.format) {
      this.header = Buffer.concat([this.header, data]);
      const start = this.dataStart();
      if (start === undefined) {
        if (this.header.length > MAX_HEADER_BYTES) throw new WavFormatError('no audio data in the first 64 KiB');
        return new Int16Array(0);
      }
      data = this.header.subarray(start);
      this.header = Buffer.alloc(0);
    }
    if (this.remaining !== undefined) {
      data = data.subarray(0, this.remaining);
      this.remaining -= data.length;
    }
    const frameBytes = 2 * this.format!.channels;
    const joined = this.partial.length > 0 ? Buffer.concat([this.partial, data]) : data;
    const whole = joined.length - (joined.length % frameBytes);
    this.partial = Buffer.from(joined.subarray(whole));
    // One copy into an aligned buffer (a piece may start at any byte). Little-endian, as every
    // platform Node runs on here.
    return new Int16Array(joined.buffer.slice(joined.byteOffset, joined.byteOffset + whole));
  }

  /** Where the samples start in `this.header` once its `fmt ` and `data` chunks are in; sets the format. */
  private dataStart(): number | undefined {
    const buf = this.header;
    if (buf.length < 12) return undefined;
    if (buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') throw new WavFormatError('not a RIFF/WAVE file');
    let format: (PcmFormat & { tag: number; bits: number }) | undefined;
    for (let at = 12; at + 8 <= buf.length;) {
      const id = buf.toString('ascii', at, at + 4);
      const size = buf.readUInt32LE(at + 4);
      const start = at + 8;
      if (id === 'data') {
        if (!format || format.tag !== 1 || format.bits !== 16 || format.channels < 1 || format.channels > 2)
          throw new WavFormatError('not 16-bit PCM, mono or stereo');
        this.format = { sampleRate: format.sampleRate, channels: format.channels };
        this.remaining = size === 0 || size === 0xffffffff ? undefined : size;
        return start;
      }
      if (id === 'fmt ') {
        if (start + 16 > buf.length) return undefined;
        format = {
          tag: buf.readUInt16LE(start),
          channels: buf.readUInt16LE(start + 2),
          sampleRate: buf.readUInt32LE(start + 4),
          bits: buf.readUInt16LE(start + 14),
        };
      }
      at = start + size + (size % 2);
    }
    return undefined;
  }
}

/** 16-bit PCM out of a whole RIFF/WAVE file; undefined when it is not one. */
export function readWav(bytes: Uint8Array): PcmAudio | undefined {
  const reader = new WavReader();
  try {
    const samples = reader.push(bytes);
    return reader.format && { ...reader.format, samples };
  } catch (err) {
    if (err instanceof WavFormatError) return undefined;
    throw err;
  }
}
