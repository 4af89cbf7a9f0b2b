import { BearerSecret } from './bearer-secret';

describe('BearerSecret', () => {
  it('accepts exactly the configured secret as a bearer token', () => {
    const s = new BearerSecret('a-secret-of-some-length');
    expect(s.matches('Bearer a-secret-of-some-length')).toBe(true);
    expect(s.matches('bearer a-secret-of-some-length')).toBe(true);
    for (const h of [
      undefined,
      '',
      'a-secret-of-some-length',
      'Bearer a-secret-of-some-lengt',
      'Bearer x',
      'Basic a-secret-of-some-length',
    ])
      expect(s.matches(h)).toBe(false);
  });

  it('matches nothing when no secret is configured', () => {
    const s = new BearerSecret(undefined);
    expect(s.configured).toBe(false);
    expect(s.matches('Bearer ')).toBe(false);
    expect(new BearerSecret('').matches('Bearer x')).toBe(false);
  });
});
