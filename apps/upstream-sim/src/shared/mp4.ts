/**
 * A tiny structurally valid MP4 (ISO BMFF: ftyp, mdat, moov with mvhd) of a given duration, so
 * the gateway's result copy handles real MP4 bytes without shipping a binary fixture.
 */
function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

export function tinyMp4(durationSeconds: number, seed = 0): Buffer {
  const ftyp = box('ftyp', Buffer.from('isom', 'latin1'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2mp41', 'latin1'));
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12); // timescale: ms
  mvhd.writeUInt32BE(Math.round(durationSeconds * 1000), 16);
  mvhd.writeUInt32BE(0x00010000, 20); // rate 1.0
  mvhd.writeUInt16BE(0x0100, 24); // volume 1.0
  for (const [i, v] of [0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000].entries()) mvhd.writeUInt32BE(v, 36 + i * 4);
  mvhd.writeUInt32BE(1, 96); // next track id
  const mdat = box('mdat', Buffer.from(`unigate-sim-video seed=${seed}`, 'latin1'));
  return Buffer.concat([ftyp, mdat, box('moov', box('mvhd', mvhd))]);
}
