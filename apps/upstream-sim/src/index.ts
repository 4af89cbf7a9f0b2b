/**
 * The offline upstream simulator. Standalone and tests embed it with createSimulator(); main.ts runs
 * it on its own. `url` is the origin: OpenAI-format clients use `${url}/v1` as their base URL.
 */
import type { AddressInfo } from 'node:net';
import { buildSimulatorApp } from './server';

export interface SimulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default delay between stream chunks in ms (default 2). */
  tokenDelayMs?: number;
  /** How many received requests GET /_sim/requests keeps (default 200). */
  requestLogLimit?: number;
}

export interface Simulator {
  /** e.g. http://127.0.0.1:8090 — no trailing slash, no /v1. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function createSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const { app } = buildSimulatorApp(opts);
  const host = opts.host ?? '127.0.0.1';
  await app.listen({ port: opts.port ?? 0, host });
  const port = (app.server.address() as AddressInfo).port;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return { url: `http://${urlHost}:${port}`, port, close: () => app.close() };
}

export { buildSimulatorApp, type SimulatorAppOptions } from './server';
export type { FaultRule } from './control/faults';
export type { LoggedRequest } from './control/request-log';
