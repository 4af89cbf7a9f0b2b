import type { NetworkInterfaceInfo } from 'node:os';
import { z } from 'zod';
import { everyAddress, hostPort, listenHost } from './listen-address';

const address = (family: 'IPv4' | 'IPv6', value: string) => ({ family, address: value }) as NetworkInterfaceInfo;

describe('everyAddress', () => {
  it("is IPv6's wildcard when an interface has an IPv6 address (an IPv6-only pod has nothing else)", () => {
    expect(everyAddress({ lo: [address('IPv6', '::1')], eth0: [address('IPv6', 'fd00::2')] })).toBe('::');
    expect(everyAddress({ lo: [address('IPv4', '127.0.0.1'), address('IPv6', '::1')], eth0: [address('IPv4', '10.0.0.2')] })).toBe('::');
  });

  it("is IPv4's where the host has no IPv6 (a kernel without it refuses `::`)", () => {
    expect(everyAddress({ lo: [address('IPv4', '127.0.0.1')], eth0: [address('IPv4', '10.0.0.2')] })).toBe('0.0.0.0');
    expect(everyAddress({})).toBe('0.0.0.0');
  });
});

describe('listenHost (HOST)', () => {
  const read = (env: Record<string, string>, fallback?: string) => z.object({ HOST: listenHost(fallback) }).parse(env).HOST;

  it('takes HOST as written, trimmed', () => {
    expect(read({ HOST: ' 10.1.2.3 ' })).toBe('10.1.2.3');
    expect(read({ HOST: '::' }, '127.0.0.1')).toBe('::');
  });

  it('listens on every address when HOST is unset or blank, or on the given fallback', () => {
    expect(read({})).toBe(everyAddress());
    expect(read({ HOST: '  ' })).toBe(everyAddress());
    expect(read({ HOST: '' }, '127.0.0.1')).toBe('127.0.0.1');
  });
});

describe('hostPort', () => {
  it('puts an IPv6 address in brackets, as a gRPC address needs', () => {
    expect(hostPort('::', 50051)).toBe('[::]:50051');
    expect(hostPort('fd00::2', 1)).toBe('[fd00::2]:1');
    expect(hostPort('[::1]', 2)).toBe('[::1]:2');
    expect(hostPort('0.0.0.0', 50051)).toBe('0.0.0.0:50051');
    expect(hostPort('chat', 50051)).toBe('chat:50051');
  });
});
