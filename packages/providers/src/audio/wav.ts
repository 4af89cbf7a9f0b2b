/** Reading a PCM WAV file (what TTS upstreams produce) far enough to re-encode it, as it arrives. */

export interface PcmFormat {
  sampleRate: number;
  channels: number;
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
  /** The header so far: `headerLength` bytes of a buffer that doubles as it fills (appending stays linear). */
  private header = Buffer.alloc(0);
  private headerLength = 0;
  /** Where the next chunk of the header starts: the chunks before it were read already. */
  private nextChunk = 12;
  private fmt?: PcmFormat & { tag: number; bits: number };
  /** Bytes of a sample frame not complete yet. */
  private partial = Buffer.alloc(0);
  /** Data bytes still to come; undefined: to the end of the file (a streamed WAV's placeholder size). */
  private remaining?: number;

  /** The whole sample frames these bytes complete (empty while the header is still coming). Throws WavFormatError. */
  push(bytes: Uint8Array): Int16Array {
    let data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (!this.format) {
      const header = this.appendHeader(data);
      const start = this.dataStart(header);
      if (start === undefined) {
        if (header.length > MAX_HEADER_BYTES) throw new WavFormatError('no audio data in the first 64 KiB');
        return new Int16Array(0);
      }
      data = header.subarray(start);
      this.header = Buffer.alloc(0);
      this.headerLength = 0;
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

  /** The header with `data` appended. */
  private appendHeader(data: Buffer): Buffer {
    const length = this.headerLength + data.length;
    if (length > this.header.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * this.header.length, length));
      this.header.copy(grown, 0, 0, this.headerLength);
      this.header = grown;
    }
    data.copy(this.header, this.headerLength);
    this.headerLength = length;
    return this.header.subarray(0, length);
  }

  /**
   * Where the samples start in `header` once its `fmt ` and `data` chunks are in; sets the format.
   * Reads only the chunks it has not read yet.
   */
  private dataStart(header: Buffer): number | undefined {
    if (header.length < 12) return undefined;
    if (header.toString('ascii', 0, 4) !== 'RIFF' || header.toString('ascii', 8, 12) !== 'WAVE')
      throw new WavFormatError('not a RIFF/WAVE file');
    while (this.nextChunk + 8 <= header.length) {
      const at = this.nextChunk;
      const id = header.toString('ascii', at, at + 4);
      const size = header.readUInt32LE(at + 4);
      const start = at + 8;
      if (id === 'data') {
        const f = this.fmt;
        if (!f || f.tag !== 1 || f.bits !== 16 || f.channels < 1 || f.channels > 2)
          throw new WavFormatError('not 16-bit PCM, mono or stereo');
        this.format = { sampleRate: f.sampleRate, channels: f.channels };
        this.remaining = size === 0 || size === 0xffffffff ? undefined : size;
        return start;
      }
      if (id === 'fmt ') {
        if (start + 16 > header.length) return undefined;
        this.fmt = {
          tag: header.readUInt16LE(start),
          channels: header.readUInt16LE(start + 2),
          sampleRate: header.readUInt32LE(start + 4),
          bits: header.readUInt16LE(start + 14),
        };
      }
      this.nextChunk = start + size + (size % 2);
    }
    return undefined;
  }
}
