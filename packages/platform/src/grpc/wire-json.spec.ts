import { z } from 'zod';
import { encodeJson, repeatingJsonDecoder } from './wire-json';

const schema = z.object({ id: z.string(), channels: z.array(z.object({ weight: z.number().default(1) })) });

describe('repeatingJsonDecoder', () => {
  it('checks bytes once: the same bytes give the same value, frozen all the way down', () => {
    const decode = repeatingJsonDecoder(schema, 'route', 'request');
    const first = decode(encodeJson({ id: 'a', channels: [{}] }));
    expect(first).toEqual({ id: 'a', channels: [{ weight: 1 }] });
    expect(decode(encodeJson({ id: 'a', channels: [{}] }))).toBe(first);
    expect(Object.isFrozen(first.channels[0])).toBe(true);
    expect(() => first.channels.push({ weight: 2 })).toThrow(TypeError);
    const other = decode(encodeJson({ id: 'b', channels: [] }));
    expect(other).toEqual({ id: 'b', channels: [] });
    expect(other).not.toBe(first);
  });

  it('refuses what fails the schema every time, keeping nothing of it', () => {
    const decode = repeatingJsonDecoder(schema, 'route', 'request');
    const bad = encodeJson({ id: 7, channels: [] });
    for (let i = 0; i < 2; i++) expect(() => decode(bad)).toThrow("route failed validation at 'id'");
    expect(() => decode(Buffer.from('{'))).toThrow('route is not JSON');
  });

  it('keeps at most `max` values, dropping the oldest', () => {
    const decode = repeatingJsonDecoder(schema, 'route', 'request', 8);
    const values = Array.from({ length: 20 }, (_, i) => decode(encodeJson({ id: `m${i}`, channels: [] })));
    expect(decode(encodeJson({ id: 'm19', channels: [] }))).toBe(values[19]);
    const again = decode(encodeJson({ id: 'm0', channels: [] }));
    expect(again).toEqual(values[0]);
    expect(again).not.toBe(values[0]);
  });
});
