/** Reading a PCM WAV file (what TTS upstreams produce) far enough to re-encode it. */

export interface PcmAudio {
  sampleRate: number;
  channels: number;
  /** Interleaved 16-bit samples. */
  samples: Int16Array;
}

/** 16-bit PCM out of a RIFF/WAVE file; undefined when it is not one. */
export function readWav(bytes: Uint8Array): PcmAudio | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') return undefined;
  let format: { channels: number; sampleRate: number; bits: number; tag: number } | undefined;
  for (let at = 12; at + 8 <= buf.length;) {
    const id = buf.toString('ascii', at, at + 4);
    const size = buf.readUInt32LE(at + 4);
    const start = at + 8;
    if (id === 'fmt ' && start + 16 <= buf.length) {
      format = {
        tag: buf.readUInt16LE(start),
        channels: buf.readUInt16LE(start + 2),
        sampleRate: buf.readUInt32LE(start + 4),
        bits: buf.readUInt16LE(start + 14),
      };
    } else if (id === 'data') {
      if (!format || format.tag !== 1 || format.bits !== 16 || format.channels < 1 || format.channels > 2) return undefined;
      // Streamed WAVs may carry a placeholder size: the data then runs to the end of the file.
      const end = Math.min(buf.length, size === 0 || size === 0xffffffff ? buf.length : start + size);
      const count = Math.floor((end - start) / 2);
      // One copy into an aligned buffer instead of a read per sample (minutes of audio are millions
      // of samples). WAV is little-endian, as every platform Node runs on here.
      const samples = new Int16Array(buf.buffer.slice(buf.byteOffset + start, buf.byteOffset + start + count * 2));
      return { sampleRate: format.sampleRate, channels: format.channels, samples };
    }
    at = start + size + (size % 2);
  }
  return undefined;
}
