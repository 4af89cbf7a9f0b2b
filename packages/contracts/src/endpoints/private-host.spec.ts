import { bareHostname, isPublicAddress } from './private-host';

describe('isPublicAddress', () => {
  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2001:4860:4860::8888', '64:ff9b::808:808', '2002:808:808::1'])(
    '%s is public',
    (a) => expect(isPublicAddress(a)).toBe(true),
  );
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    '::ffff:127.0.0.1',
    '::ffff:a00:1', // IPv4-mapped 10.0.0.1 written in hex
    '::10.0.0.1', // IPv4-compatible
    '::a9fe:a9fe', // IPv4-compatible 169.254.169.254
    '64:ff9b::10.0.0.1', // NAT64: reaches 10.0.0.1 on an IPv6-only cluster with DNS64
    '64:ff9b::a9fe:a9fe', // NAT64 to the cloud metadata address
    '64:ff9b:1::1', // local-use NAT64
    '2002:a00:1::1', // 6to4 of 10.0.0.1
    '2002:7f00:1::', // 6to4 of 127.0.0.1
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
    '2001:db8::1',
    '::ffff:0:127.0.0.1', // IPv4-translated (SIIT)
    'fec0::1', // site-local
    '100::1',
    'fe80::1%eth0',
    'not-an-ip',
  ])('%s is not', (a) => expect(isPublicAddress(a)).toBe(false));
});

describe('bareHostname', () => {
  it('drops IPv6 brackets and the trailing dots of a fully qualified name, and lowers the case', () => {
    expect(bareHostname('[::1]')).toBe('::1');
    expect(bareHostname('LOCALHOST.')).toBe('localhost');
    expect(bareHostname('example.com...')).toBe('example.com');
    expect(bareHostname('...')).toBe('');
    expect(bareHostname(`a${'.'.repeat(4080)}x`)).toBe(`a${'.'.repeat(4080)}x`);
  });
});
