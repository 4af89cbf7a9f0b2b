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

const tone = (seconds: number) => Array.from({ length: 24_000 * seconds }, (_, i) => Math.round(Math.sin(i / 8) * 8000));

test('readWav reads 16-bit PCM and refuses what is not a WAV', () => {
  expect(readWav(wav([1, -2, 3]))).toEqual({ sampleRate: 24_000, channels: 1, samples: Int16Array.from([1, -2, 3]) });
  expect(readWav(Buffer.from('ID3 not a wav at all'))).toBeUndefined();
});

test('encodeMp3 produces MPEG audio frames, longer audio giving more bytes', () => {
  const encode = (seconds: number) => Buffer.concat([...encodeMp3(readWav(wav(tone(seconds)))!)]);
  const short = encode(1);
  const long = encode(4);
  expect(short[0]).toBe(0xff);
  expect(short[1] & 0xe0).toBe(0xe0);
  expect(long.length).toBeGreaterThan(short.length * 3);
});

test('encodeMp3 hands control back every sliceMs of encoding, after setting up, with the same bytes whatever the slices', () => {
  const pcm = readWav(wav(tone(2)))!;
  const frames = Math.ceil(pcm.samples.length / 1152);
  // A clock that moves 1 ms each time it is read: a 1 ms budget is spent by every frame.
  let t = 0;
  const sliced = [...encodeMp3(pcm, { sliceMs: 1, now: () => t++ })];
  const whole = [...encodeMp3(pcm, { sliceMs: Infinity })];
  expect(sliced[0]).toHaveLength(0); // the encoder's set-up, a piece of its own
  expect(whole).toHaveLength(2); // the set-up, then everything
  expect(sliced.length).toBeGreaterThanOrEqual(frames);
  expect(Buffer.concat(sliced)).toEqual(Buffer.concat(whole));
  expect(Buffer.concat(whole).length).toBeGreaterThan(0);
});
