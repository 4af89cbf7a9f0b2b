import { encodeMp3 } from './mp3-encoder';
import { readWav } from './wav';

function wav(samples: number[], sampleRate = 24_000): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => data.writeInt16LE(s, i * 2));
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVEfmt ', 8, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

test('readWav reads 16-bit PCM and refuses what is not a WAV', () => {
  expect(readWav(wav([1, -2, 3]))).toEqual({ sampleRate: 24_000, channels: 1, samples: Int16Array.from([1, -2, 3]) });
  expect(readWav(Buffer.from('ID3 not a wav at all'))).toBeUndefined();
});

test('encodeMp3 produces MPEG audio frames in pieces, longer audio giving more bytes', () => {
  const tone = (seconds: number) => Array.from({ length: 24_000 * seconds }, (_, i) => Math.round(Math.sin(i / 8) * 8000));
  const encode = (seconds: number) => Buffer.concat([...encodeMp3(readWav(wav(tone(seconds)))!)]);
  const short = encode(1);
  const long = encode(4);
  expect(short[0]).toBe(0xff);
  expect(short[1] & 0xe0).toBe(0xe0);
  expect(long.length).toBeGreaterThan(short.length * 3);
  expect([...encodeMp3(readWav(wav(tone(4)))!)].length).toBeGreaterThan(1);
});
