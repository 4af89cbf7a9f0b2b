/**
 * Where a service listens (contracts' listen-address.ts), on a real service host (runService): with HOST
 * unset, its HTTP and gRPC servers answer on every address, IPv6's and IPv4's loopback alike where the
 * machine has IPv6; with HOST=:: (an IPv6 address) the gRPC server still binds.
 */
import { connect } from 'node:http2';
import { Module, type INestApplication } from '@nestjs/common';
import { freePort } from '@unigate/testing';
import { everyAddress } from '@unigate/contracts';
import { GRPC_HANDLERS, runService } from '@unigate/platform/distributed';

@Module({ providers: [{ provide: GRPC_HANDLERS, useValue: {} }], exports: [GRPC_HANDLERS] })
class NoHandlers {}

const savedEnv = { ...process.env };
let app: INestApplication | undefined;

afterEach(async () => {
  await app?.close();
  app = undefined;
  process.env = { ...savedEnv };
});

async function start(host: string | undefined): Promise<{ http: number; grpc: number }> {
  const ports = { http: await freePort(), grpc: await freePort() };
  delete process.env.HOST;
  Object.assign(
    process.env,
    { PORT: String(ports.http), GRPC_PORT: String(ports.grpc), LOG_LEVEL: 'silent' },
    host !== undefined && { HOST: host },
  );
  app = await runService({ name: 'listen-test', module: NoHandlers, grpc: true });
  return ports;
}

const liveAt = async (host: string, port: number) => (await fetch(`http://${host}:${port}/health/live`)).status;

/** Whether an HTTP/2 server (the gRPC one) answers at `host:port`: its SETTINGS arrive. */
const http2At = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const session = connect(`http://${host}:${port}`);
    session.once('remoteSettings', () => {
      session.close();
      resolve(true);
    });
    session.once('error', () => resolve(false));
  });

const loopbacks = () => (everyAddress() === '::' ? ['127.0.0.1', '[::1]'] : ['127.0.0.1']);

it('listens on every address when HOST is unset: IPv4 and, where the machine has it, IPv6', async () => {
  const ports = await start(undefined);
  expect(loopbacks().length).toBe(2); // the machines this runs on have IPv6; without it this case says little
  for (const host of loopbacks()) {
    expect(await liveAt(host, ports.http)).toBe(200);
    expect(await http2At(host, ports.grpc)).toBe(true);
  }
});

it('binds the gRPC server on an IPv6 HOST (it used to read "::" + ":port" as a name to resolve)', async () => {
  const ports = await start('::1');
  expect(await liveAt('[::1]', ports.http)).toBe(200);
  expect(await http2At('[::1]', ports.grpc)).toBe(true);
  expect(await http2At('127.0.0.1', ports.grpc)).toBe(false);
});

it('keeps to the address HOST names', async () => {
  const ports = await start('127.0.0.1');
  expect(await liveAt('127.0.0.1', ports.http)).toBe(200);
  expect(await http2At('127.0.0.1', ports.grpc)).toBe(true);
  expect(await http2At('[::1]', ports.grpc)).toBe(false);
});
