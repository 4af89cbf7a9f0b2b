/** Tiny real PNGs for upload tests (no image library needed): solid colour, optionally with transparent columns. */
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/**
 * A width×height PNG. `alpha`: RGBA, with columns from `transparentFrom` on fully transparent (a mask
 * whose right part is the area to edit); otherwise RGB.
 */
export function png(
  width: number,
  height: number,
  opts: { alpha?: boolean; transparentFrom?: number; rgb?: [number, number, number] } = {},
): Buffer {
  const channels = opts.alpha ? 4 : 3;
  const [r, g, b] = opts.rgb ?? [40, 90, 160];
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * channels);
    for (let x = 0; x < width; x++) {
      const i = 1 + x * channels;
      row[i] = r;
      row[i + 1] = g;
      row[i + 2] = b;
      if (opts.alpha) row[i + 3] = opts.transparentFrom !== undefined && x >= opts.transparentFrom ? 0 : 255;
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = opts.alpha ? 6 : 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
