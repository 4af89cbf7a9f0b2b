/**
 * Where a process listens. `HOST` when set; unset (or blank), every address of the host: `::` where
 * the host has IPv6 (on Linux that socket takes IPv4 connections too), `0.0.0.0` where it has none.
 * A fixed `0.0.0.0` left the pods of an IPv6-only cluster unreachable by their probes and Services.
 */
import { networkInterfaces } from 'node:os';
import { z } from 'zod';

/** Every address of this host: IPv6's wildcard when any interface has an IPv6 address, else IPv4's. */
export function everyAddress(interfaces: ReturnType<typeof networkInterfaces> = networkInterfaces()): string {
  const ipv6 = Object.values(interfaces).some((addresses) => addresses?.some((a) => a.family === 'IPv6'));
  return ipv6 ? '::' : '0.0.0.0';
}

/** HOST for a listening process: `fallback` when unset or blank (default: every address). */
export const listenHost = (fallback?: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((host) => host || fallback || everyAddress());

/** `host:port` as gRPC takes it: an IPv6 address goes in brackets (`[::]:50051`). */
export function hostPort(host: string, port: number): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]:${port}` : `${host}:${port}`;
}
