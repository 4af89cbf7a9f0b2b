/**
 * What an uploaded image really is, read from its bytes (never from its file name or declared type):
 * PNG, JPEG or WebP, its dimensions, and whether it carries transparency (a mask must).
 */
export type ImageFormat = 'png' | 'jpeg' | 'webp';

export interface SniffedImage {
  format: ImageFormat;
  width: number;
  height: number;
  /** PNG only: an alpha channel or a transparency chunk. */
  alpha?: boolean;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function sniffImage(bytes: Uint8Array): SniffedImage | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 33 && PNG_SIGNATURE.every((v, i) => b[i] === v) && b.toString('latin1', 12, 16) === 'IHDR') return png(b);
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpeg(b);
  if (b.length >= 30 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return webp(b);
  return undefined;
}

function png(b: Buffer): SniffedImage | undefined {
  const width = b.readUInt32BE(16);
  const height = b.readUInt32BE(20);
  const colorType = b[25];
  let alpha = colorType === 4 || colorType === 6;
  // A tRNS chunk before the image data gives palette or grey images transparency.
  for (let at = 33; !alpha && at + 8 <= b.length;) {
    const type = b.toString('latin1', at + 4, at + 8);
    if (type === 'tRNS') alpha = true;
    if (type === 'IDAT' || type === 'IEND') break;
    at += 12 + b.readUInt32BE(at);
  }
  return width > 0 && height > 0 ? { format: 'png', width, height, alpha } : undefined;
}

function jpeg(b: Buffer): SniffedImage | undefined {
  for (let at = 2; at + 9 < b.length;) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1];
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = b.readUInt16BE(at + 2);
    // SOF0..SOF15 carry the frame size (C4 = huffman tables, C8 = reserved, CC = arithmetic coding).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = b.readUInt16BE(at + 5);
      const width = b.readUInt16BE(at + 7);
      return width > 0 && height > 0 ? { format: 'jpeg', width, height } : undefined;
    }
    at += 2 + length;
  }
  return undefined;
}

function webp(b: Buffer): SniffedImage | undefined {
  const chunk = b.toString('latin1', 12, 16);
  let width = 0;
  let height = 0;
  if (chunk === 'VP8 ') {
    width = b.readUInt16LE(26) & 0x3fff;
    height = b.readUInt16LE(28) & 0x3fff;
  } else if (chunk === 'VP8L') {
    const [b0, b1, b2, b3] = [b[21], b[22], b[23], b[24]];
    width = 1 + (((b1 & 0x3f) << 8) | b0);
    height = 1 + (((b3 & 0x0f) << 10) | (b2 << 2) | ((b1 & 0xc0) >> 6));
  } else if (chunk === 'VP8X') {
    width = 1 + b.readUIntLE(24, 3);
    height = 1 + b.readUIntLE(27, 3);
  } else return undefined;
  return width > 0 && height > 0 ? { format: 'webp', width, height } : undefined;
}
