/** Local HTTP servers standing in for targets in the bench's specs: each on a free port of 127.0.0.1. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export function localServers() {
  let servers: http.Server[] = [];
  return {
    /** Starts a server for `handler`; resolves its origin. */
    async listen(handler: http.RequestListener): Promise<string> {
      const s = http.createServer(handler);
      await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
      servers.push(s);
      return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
    },
    /** Closes every server started so far. */
    async closeAll(): Promise<void> {
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
      servers = [];
    },
  };
}
