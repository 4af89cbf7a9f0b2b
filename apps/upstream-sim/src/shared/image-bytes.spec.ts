import sharp from 'sharp';
import { editedImage, generatedImage } from './image-bytes';

const solid = (w: number, h: number, alphaFrom?: number) => {
  const px = Buffer.alloc(w * h * 4);
  for (let p = 0; p < w * h; p++) px.set([20, 60, 200, alphaFrom !== undefined && p % w >= alphaFrom ? 0 : 255], p * 4);
  return sharp(px, { raw: { width: w, height: h, channels: 4 } })
    .png()
    .toBuffer();
};

test('generated images have the asked size and format, the same for the same prompt', async () => {
  const a = await generatedImage('harbour', 0, 320, 176, 'webp');
  expect(await sharp(a).metadata()).toMatchObject({ format: 'webp', width: 320, height: 176 });
  expect((await generatedImage('harbour', 0, 320, 176, 'webp')).equals(a)).toBe(true);
  expect((await generatedImage('harbour', 1, 320, 176, 'webp')).equals(a)).toBe(false);
});

test('an edit keeps the input where the mask is opaque and repaints only where it is transparent', async () => {
  const { bytes, width, height } = await editedImage(await solid(64, 64), await solid(64, 64, 32), 'a boat', 0, undefined, 'png');
  expect([width, height]).toEqual([64, 64]);
  const px = await sharp(bytes).ensureAlpha().raw().toBuffer();
  const at = (x: number, y: number) => [...px.subarray((y * 64 + x) * 4, (y * 64 + x) * 4 + 3)];
  for (const y of [0, 20, 63]) {
    for (const x of [0, 15, 31]) expect(at(x, y)).toEqual([20, 60, 200]);
  }
  const changed = [32, 40, 50, 63].flatMap((x) => [0, 30, 63].map((y) => at(x, y))).filter((c) => c.join() !== '20,60,200');
  expect(changed.length).toBeGreaterThan(6);
});
