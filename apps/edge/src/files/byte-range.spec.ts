import { byteRange } from './byte-range';

describe('byteRange', () => {
  it.each([
    ['bytes=0-9', { start: 0, end: 9 }],
    ['bytes=10-', { start: 10, end: 99 }],
    ['bytes=-5', { start: 95, end: 99 }],
    ['bytes=-500', { start: 0, end: 99 }],
    ['bytes=90-500', { start: 90, end: 99 }],
    [' bytes=0-0 ', { start: 0, end: 0 }],
  ])('%s of 100 bytes', (header, range) => {
    expect(byteRange(header, 100)).toEqual(range);
  });

  it.each(['bytes=100-', 'bytes=150-200', 'bytes=-0'])('%s of 100 bytes is unsatisfiable (416)', (header) => {
    expect(byteRange(header, 100)).toBe('unsatisfiable');
  });

  it.each([undefined, '', 'bytes=-', 'bytes=0-1,5-6', 'items=0-9', 'bytes=9-0', 'bytes=a-b'])(
    '%s is ignored: the whole file answers',
    (header) => {
      expect(byteRange(header, 100)).toBeNull();
    },
  );
});
