import { SECONDS_PER_CHAR, speechWavChunks, speechWavStream, TTS_SAMPLE_RATE } from './wav';

// 200 characters: 12 s of audio, 48 pieces.
const text = 'The harbour light turns over the water. '.repeat(5);

test('a text’s audio is made a quarter of a second at a time, all of it, with a valid header', () => {
  const [header, ...pieces] = [...speechWavChunks(text)];
  const dataBytes = Math.round(TTS_SAMPLE_RATE * SECONDS_PER_CHAR) * text.length * 2;
  expect(header.toString('ascii', 0, 4)).toBe('RIFF');
  expect(header.readUInt32LE(40)).toBe(dataBytes);
  expect(pieces.reduce((n, p) => n + p.length, 0)).toBe(dataBytes);
  expect(Math.max(...pieces.map((p) => p.length))).toBe((TTS_SAMPLE_RATE / 4) * 2);
});

test('the stream makes one piece per turn of the event loop, however fast it is read', async () => {
  let turns = 0;
  let counting = true;
  const count = () => {
    turns++;
    if (counting) setImmediate(count);
  };
  setImmediate(count);
  const piecesAtTurn = new Map<number, number>();
  let bytes = 0;
  // Read as a loopback socket does: everything, at once, in flowing mode.
  await new Promise<void>((resolve, reject) =>
    speechWavStream(text)
      .on('data', (piece: Buffer) => {
        bytes += piece.length;
        piecesAtTurn.set(turns, (piecesAtTurn.get(turns) ?? 0) + 1);
      })
      .on('end', resolve)
      .on('error', reject),
  );
  counting = false;
  expect(bytes).toBe(44 + Math.round(TTS_SAMPLE_RATE * SECONDS_PER_CHAR) * text.length * 2);
  // The generator read straight through made all 49 pieces in one turn.
  expect(Math.max(...piecesAtTurn.values())).toBeLessThanOrEqual(2);
});
