import { jsonbText } from './jsonb';

describe('jsonbText', () => {
  it('replaces NUL and unpaired surrogates with U+FFFD and keeps everything else', () => {
    expect(JSON.parse(jsonbText({ a: 'x\u0000y', b: ['\ud800', 'ok 🙂'], n: 1, k: { 'c\ud800': 'z' } }))).toEqual({
      a: 'x\ufffdy',
      b: ['\ufffd', 'ok 🙂'],
      n: 1,
      k: { 'c\ufffd': 'z' },
    });
  });
});
