import { wavToMp3 } from './mp3-encoder';
import { WavFormatError, WavReader } from './wav';

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

test('the reader reads 16-bit PCM and refuses what is not a WAV', () => {
  const reader = new WavReader();
  expect(reader.push(wav([1, -2, 3]))).toEqual(Int16Array.from([1, -2, 3]));
  expect(reader.format).toEqual({ sampleRate: 24_000, channels: 1 });
  expect(() => new WavReader().push(Buffer.from('ID3 not a wav at all'))).toThrow(WavFormatError);
});

/** Every piece of an MP3 encode, with turns that cost nothing. */
async function mp3(chunks: Iterable<Uint8Array>, opts: Parameters<typeof wavToMp3>[1] = {}): Promise<Buffer[]> {
  const pieces: Buffer[] = [];
  for await (const piece of wavToMp3(chunks, { turn: async () => {}, ...opts })) pieces.push(Buffer.from(piece));
  return pieces;
}

/** `bytes` cut into pieces of `size` (the last one shorter). */
function pieces(bytes: Buffer, size: number): Buffer[] {
  return Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
}

test('wavToMp3 produces MPEG audio frames, longer audio giving more bytes', async () => {
  const short = Buffer.concat(await mp3([wav(tone(1))]));
  const long = Buffer.concat(await mp3([wav(tone(4))]));
  expect(short[0]).toBe(0xff);
  expect(short[1] & 0xe0).toBe(0xe0);
  expect(long.length).toBeGreaterThan(short.length * 3);
});

test('wavToMp3 takes a turn every sliceMs of encoding, and after setting up, with the same bytes whatever the slices', async () => {
  const file = wav(tone(2));
  const frames = Math.ceil((file.length - 44) / 2 / 1152);
  let turns = 0;
  // A clock that moves 1 ms each time it is read: a 1 ms budget is spent by every frame.
  let t = 0;
  const sliced = await mp3([file], { sliceMs: 1, now: () => t++, turn: async () => void turns++ });
  expect(turns).toBeGreaterThanOrEqual(frames + 1); // every frame, and the set-up
  expect(sliced.length).toBeGreaterThan(frames / 2);
  let wholeTurns = 0;
  const whole = await mp3([file], { sliceMs: Infinity, turn: async () => void wholeTurns++ });
  expect(wholeTurns).toBe(1); // the set-up only
  expect(whole).toHaveLength(1);
  expect(Buffer.concat(sliced)).toEqual(Buffer.concat(whole));
});

test('a WAV that arrives in pieces cut anywhere (inside the header, inside a sample) encodes as when it came whole', async () => {
  const file = wav(tone(1));
  const whole = Buffer.concat(await mp3([file]));
  for (const size of [1, 7, 45, 1_001]) expect(Buffer.concat(await mp3(pieces(file, size)))).toEqual(whole);
});

test('the reader gives whole samples from pieces of any size, and stops at the data chunk’s size', () => {
  const file = Buffer.concat([wav([1, 2, 3]), Buffer.from('LIST\u0004\u0000\u0000\u0000junk')]);
  const reader = new WavReader();
  const got = pieces(file, 5).flatMap((p) => [...reader.push(p)]);
  expect(got).toEqual([1, 2, 3]);
  expect(reader.format).toEqual({ sampleRate: 24_000, channels: 1 });
});

test('what is not 16-bit PCM WAV is refused before any audio goes out', async () => {
  await expect(mp3([Buffer.from('ID3 an mp3 already')])).rejects.toBeInstanceOf(WavFormatError);
  const eightBit = wav([1, 2]);
  eightBit.writeUInt16LE(8, 34); // bits per sample
  await expect(mp3([eightBit])).rejects.toThrow(/not 16-bit PCM/);
  await expect(mp3([wav([1, 2]).subarray(0, 30)])).rejects.toThrow(/ended before its audio data/);
  // A body that never reaches its audio data is not read without end.
  const noData = Buffer.concat([wav([]).subarray(0, 36), Buffer.from('JUNK'), Buffer.from([0xff, 0xff, 0xff, 0x00]), Buffer.alloc(70_000)]);
  await expect(mp3(pieces(noData, 4_096))).rejects.toThrow(/no audio data in the first 64 KiB/);
});
