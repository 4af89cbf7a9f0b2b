import { parseOrThrow } from '../validation';
import { ENDPOINTS } from '.';

describe('endpoint spec examples', () => {
  it.each(ENDPOINTS.map((s) => [s.name, s] as const))('%s: its example is a valid request', (_name, spec) => {
    expect(() => parseOrThrow(spec.request, spec.example)).not.toThrow();
    expect(typeof spec.modelOf(parseOrThrow(spec.request, spec.example))).toBe('string');
  });
});
