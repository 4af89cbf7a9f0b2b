/**
 * Real images at the requested size and format (PNG, JPEG, WebP via sharp): a pattern seeded by the
 * prompt, and edits that keep the input where the mask is opaque and paint only where it is
 * transparent — visibly respecting the mask.
 */
import sharp from 'sharp';
import { SeededRandom, seedFrom } from './seeded-random';

export type OutputFormat = 'png' | 'jpeg' | 'webp';

/** RGBA pixels of a deterministic pattern: diagonal bands in two colours picked from the seed. */
function pattern(width: number, height: number, seed: number, transparentBackground: boolean): Buffer {
  const random = new SeededRandom(seed);
  const a = [random.int(0, 255), random.int(0, 255), random.int(0, 255)];
  const b = [random.int(0, 255), random.int(0, 255), random.int(0, 255)];
  const band = Math.max(8, Math.round(Math.min(width, height) / random.int(6, 16)));
  const px = Buffer.alloc(width * height * 4);
  const margin = Math.round(Math.min(width, height) / 8);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const c = Math.floor((x + y) / band) % 2 ? a : b;
      const i = (y * width + x) * 4;
      px[i] = c[0];
      px[i + 1] = c[1];
      px[i + 2] = c[2];
      const edge = x < margin || y < margin || x >= width - margin || y >= height - margin;
      px[i + 3] = transparentBackground && edge ? 0 : 255;
    }
  return px;
}

async function encode(raw: Buffer, width: number, height: number, format: OutputFormat): Promise<Buffer> {
  const img = sharp(raw, { raw: { width, height, channels: 4 } });
  return format === 'jpeg'
    ? img.flatten({ background: '#ffffff' }).jpeg().toBuffer()
    : format === 'webp'
      ? img.webp().toBuffer()
      : img.png().toBuffer();
}

export function generatedImage(prompt: string, index: number, width: number, height: number, format: OutputFormat, transparent = false) {
  return encode(pattern(width, height, seedFrom([prompt, index]), transparent), width, height, format);
}

/** The input image at the output size, repainted only where the mask (if any) is transparent — everywhere without one. */
export async function editedImage(
  input: Buffer,
  mask: Buffer | undefined,
  prompt: string,
  index: number,
  size: { width: number; height: number } | undefined,
  format: OutputFormat,
): Promise<{ bytes: Buffer; width: number; height: number }> {
  const meta = await sharp(input).metadata();
  const width = size?.width ?? meta.width!;
  const height = size?.height ?? meta.height!;
  const base = await sharp(input).resize(width, height, { fit: 'fill' }).ensureAlpha().raw().toBuffer();
  const paint = pattern(width, height, seedFrom([prompt, index]), false);
  if (!mask) return { bytes: await encode(blend(base, paint, 0.5), width, height, format), width, height };
  const alpha = await sharp(mask).resize(width, height, { fit: 'fill' }).ensureAlpha().extractChannel(3).raw().toBuffer();
  const out = Buffer.from(base);
  for (let p = 0; p < width * height; p++) {
    if (alpha[p] >= 128) continue; // opaque in the mask: kept as it was
    paint.copy(out, p * 4, p * 4, p * 4 + 4);
  }
  return { bytes: await encode(out, width, height, format), width, height };
}

function blend(a: Buffer, b: Buffer, t: number): Buffer {
  const out = Buffer.alloc(a.length);
  for (let i = 0; i < a.length; i++) out[i] = Math.round(a[i] * (1 - t) + b[i] * t);
  return out;
}

/**
 * Width and height of an encoded image that decodes whole (its pixels, within sharp's pixel limit, not
 * only its header); undefined for one that does not.
 */
export async function decodedSize(bytes: Buffer): Promise<{ width: number; height: number } | undefined> {
  try {
    const { info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height };
  } catch {
    return undefined;
  }
}
