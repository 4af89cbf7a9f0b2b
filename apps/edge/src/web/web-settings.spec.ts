import { signupRefusal, webSettingsFromEnv } from './web-settings';

describe('sign-up settings', () => {
  it('is open by default, with no credit, making free-tier accounts', () => {
    const s = webSettingsFromEnv({});
    expect(s).toEqual({ signup: true, invites: new Set(), creditMicros: 0, tier: 'free' });
    expect(webSettingsFromEnv({ UNIGATE_SIGNUP_TIER: 'paid' }).tier).toBe('paid');
    expect(signupRefusal(s, 'a@b.co')).toBeNull();
  });

  it('can be closed, or limited to invited emails (case-insensitive)', () => {
    expect(signupRefusal(webSettingsFromEnv({ UNIGATE_SIGNUP: 'off' }), 'a@b.co')).toContain('closed');
    const invited = webSettingsFromEnv({ UNIGATE_SIGNUP_INVITES: ' A@x.io, b@y.io ', UNIGATE_SIGNUP_CREDIT_USD: '2.5' });
    expect(invited.creditMicros).toBe(2_500_000);
    expect(signupRefusal(invited, 'a@X.io')).toBeNull();
    expect(signupRefusal(invited, 'c@z.io')).toContain('invitation');
  });

  it('refuses bad values at start', () => {
    expect(() => webSettingsFromEnv({ UNIGATE_SIGNUP: 'maybe' })).toThrow('UNIGATE_SIGNUP must be on or off');
    expect(() => webSettingsFromEnv({ UNIGATE_SIGNUP_CREDIT_USD: '-1' })).toThrow('must not be negative');
    expect(() => webSettingsFromEnv({ UNIGATE_SIGNUP_TIER: 'gold' })).toThrow('UNIGATE_SIGNUP_TIER must be one of: paid, free');
    // As every other variable: one line per bad variable, not zod's issues as JSON.
    expect(() => webSettingsFromEnv({ UNIGATE_SIGNUP_CREDIT_USD: 'abc' })).toThrow(
      'Invalid environment:\n  UNIGATE_SIGNUP_CREDIT_USD: UNIGATE_SIGNUP_CREDIT_USD must be a number of USD',
    );
  });
});
