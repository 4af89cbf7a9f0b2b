import { corsOriginsEnv } from './cors';

describe('UNIGATE_CORS_ORIGINS', () => {
  it('is * unset or blank, off when off, else the set of origins listed', () => {
    expect(corsOriginsEnv.parse(undefined)).toBe('*');
    expect(corsOriginsEnv.parse(' ')).toBe('*');
    expect(corsOriginsEnv.parse('off')).toBe('off');
    expect(corsOriginsEnv.parse('https://app.example, http://127.0.0.1:3000,')).toEqual(
      new Set(['https://app.example', 'http://127.0.0.1:3000']),
    );
  });

  it('refuses what is not an origin, naming it', () => {
    for (const bad of ['https://app.example/chat', 'app.example', 'ftp://files.example', 'https://app.example:443']) {
      const parsed = corsOriginsEnv.safeParse(`https://ok.example,${bad}`);
      expect([bad, parsed.success, parsed.error?.issues[0].message]).toEqual([
        bad,
        false,
        expect.stringContaining(`'${bad}' is not an origin`),
      ]);
    }
  });
});
