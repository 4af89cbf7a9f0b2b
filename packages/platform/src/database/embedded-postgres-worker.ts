/**
 * The embedded store's worker thread (plain CommonJS, run with `eval`; module paths come in
 * workerData): PGlite plus a small Postgres wire server on loopback, so the ordinary `pg` driver talks
 * to it. It replaces @electric-sql/pglite-socket's server, for three reasons:
 *
 * 1. Speed. pglite-socket runs every protocol message as its own PGlite call and socket write; a
 *    parameterised statement is five messages (Parse, Bind, Describe, Execute, Sync). Here everything
 *    a connection sent up to its Sync runs as ONE call with ONE write (PGlite executes batched
 *    messages in a loop). Measured per round trip: a parameterised SELECT 0.52–0.63 ms → 0.25–0.37 ms,
 *    billing's hold statement 0.90 ms → 0.60 ms, and 0.39 ms once prepared (3.).
 * 2. Atomic protocol units. PGlite has one backend for all connections, so its unnamed statement and
 *    portal are shared: another connection's Parse between this one's Parse and Execute would
 *    replace this one's statement. Here that cannot happen by construction: a connection's messages
 *    up to Sync (or a simple Query) run as one unit, and after a Flush the connection keeps the
 *    backend until its Sync.
 * 3. Prepared statements per connection. Named statements live in that one backend too: a pooled
 *    connection that reconnects finds its statements "already exist", and two connections could
 *    collide on a name. Statement and portal names are rewritten to a per-connection namespace
 *    (`c<id>_<name>`) and a connection's statements are deallocated when it closes.
 *
 * Kept from pglite-socket: one transaction at a time across connections — while a transaction is
 * open only its connection's work runs, everyone else's waits in order; a connection that goes away
 * mid-transaction is rolled back. SSLRequest is answered 'N'; CancelRequest is ignored (there is no
 * second backend to signal).
 */
export const EMBEDDED_WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const net = require('node:net');
const { PGlite } = require(workerData.pglite);

const SSL_REQUEST = 80877103, GSSENC_REQUEST = 80877104, CANCEL_REQUEST = 80877102;
const T = (c) => c.charCodeAt(0);
const PARSE = T('P'), BIND = T('B'), DESCRIBE = T('D'), CLOSE = T('C'), EXECUTE = T('E');
const SYNC = T('S'), QUERY = T('Q'), FLUSH = T('H'), TERMINATE = T('X');
const SYNC_MESSAGE = Buffer.from([SYNC, 0, 0, 0, 4]);

// A NUL-terminated string at offset: [value, offset after it].
function cstring(buf, at) {
  const end = buf.indexOf(0, at);
  return [buf.toString('utf8', at, end), end + 1];
}
function cstringBytes(s) {
  return Buffer.concat([Buffer.from(s, 'utf8'), Buffer.from([0])]);
}
function message(type, parts) {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(5);
  head[0] = type;
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

class WireServer {
  constructor(db) {
    this.db = db;
    this.jobs = [];
    this.busy = false;
    this.nextId = 1;
    this.pinned = null; // connection between a Flush and its Sync
    this.last = null; // connection whose work ran last (owns an open transaction)
    this.connections = new Set();
    this.stopped = false; // set once PGlite is closing: nothing may touch it any more
  }

  name(conn, n) {
    return n === '' ? n : 'c' + conn.id + '_' + n;
  }

  // Statement and portal names into the connection's namespace; everything else untouched.
  rename(conn, msg) {
    const type = msg[0];
    if (type === PARSE) {
      const [stmt, next] = cstring(msg, 5);
      if (stmt === '') return msg;
      const named = this.name(conn, stmt);
      conn.statements.add(named);
      return message(PARSE, [cstringBytes(named), msg.subarray(next)]);
    }
    if (type === BIND) {
      const [portal, a] = cstring(msg, 5);
      const [stmt, b] = cstring(msg, a);
      if (portal === '' && stmt === '') return msg;
      return message(BIND, [cstringBytes(this.name(conn, portal)), cstringBytes(this.name(conn, stmt)), msg.subarray(b)]);
    }
    if (type === DESCRIBE || type === CLOSE) {
      const [n, next] = cstring(msg, 6);
      if (n === '') return msg;
      if (type === CLOSE && msg[5] === T('S')) conn.statements.delete(this.name(conn, n));
      return message(type, [msg.subarray(5, 6), cstringBytes(this.name(conn, n)), msg.subarray(next)]);
    }
    if (type === EXECUTE) {
      const [portal, next] = cstring(msg, 5);
      if (portal === '') return msg;
      return message(EXECUTE, [cstringBytes(this.name(conn, portal)), msg.subarray(next)]);
    }
    return msg;
  }

  accept(socket) {
    socket.setNoDelay(true);
    const conn = { id: this.nextId++, socket, buf: Buffer.alloc(0), started: false, pending: [], statements: new Set(), closed: false };
    this.connections.add(conn);
    socket.on('data', (data) => this.onData(conn, data));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.onClose(conn));
  }

  onData(conn, data) {
    conn.buf = conn.buf.length ? Buffer.concat([conn.buf, data]) : data;
    let at = 0;
    for (;;) {
      const rest = conn.buf.length - at;
      if (!conn.started) {
        if (rest < 8) break;
        const len = conn.buf.readInt32BE(at);
        const code = conn.buf.readInt32BE(at + 4);
        if (rest < len) break;
        const msg = conn.buf.subarray(at, at + len);
        at += len;
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) conn.socket.write('N');
        else if (code === CANCEL_REQUEST) conn.socket.end();
        else {
          conn.started = true;
          this.enqueue({ conn, bytes: Buffer.from(msg), pin: false });
        }
        continue;
      }
      if (rest < 5) break;
      const len = 1 + conn.buf.readInt32BE(at + 1);
      if (rest < len) break;
      const msg = conn.buf.subarray(at, at + len);
      at += len;
      const type = msg[0];
      if (type === TERMINATE) {
        conn.socket.end();
        break;
      }
      conn.pending.push(this.rename(conn, msg));
      if (type === SYNC || type === QUERY || type === FLUSH) {
        this.enqueue({ conn, bytes: Buffer.concat(conn.pending), pin: type === FLUSH });
        conn.pending = [];
      }
    }
    conn.buf = at === conn.buf.length ? Buffer.alloc(0) : Buffer.from(conn.buf.subarray(at));
  }

  onClose(conn) {
    if (conn.closed) return;
    conn.closed = true;
    this.connections.delete(conn);
    this.jobs = this.jobs.filter((j) => j.conn !== conn);
    this.enqueue({ conn, cleanup: true });
  }

  enqueue(job) {
    this.jobs.push(job);
    void this.pump();
  }

  // Whose work must run next: the connection mid protocol unit, or the one with the open transaction.
  owner() {
    if (this.pinned) return this.pinned;
    if (this.last && this.db.isInTransaction()) return this.last;
    return null;
  }

  async pump() {
    if (this.busy || this.stopped) return;
    this.busy = true;
    try {
      while (this.jobs.length > 0 && !this.stopped) {
        const owner = this.owner();
        const i = owner ? this.jobs.findIndex((j) => j.conn === owner) : 0;
        if (i === -1) break; // the owner has not sent its next message yet
        const [job] = this.jobs.splice(i, 1);
        if (job.cleanup) await this.cleanup(job.conn);
        else await this.run(job);
      }
    } finally {
      this.busy = false;
    }
  }

  async run(job) {
    const out = [];
    try {
      await this.db.runExclusive(() => this.db.execProtocolRawStream(job.bytes, { onRawData: (d) => out.push(Buffer.from(d)) }));
    } catch (err) {
      job.conn.socket.destroy();
      return;
    }
    this.pinned = job.pin ? job.conn : null;
    this.last = job.conn;
    if (!job.conn.closed && out.length > 0) job.conn.socket.write(out.length === 1 ? out[0] : Buffer.concat(out));
  }

  // A closed connection leaves nothing behind: no half protocol unit, no open transaction, no statements.
  async cleanup(conn) {
    try {
      if (this.pinned === conn) await this.db.runExclusive(() => this.db.execProtocolRawStream(SYNC_MESSAGE, { onRawData: () => {} }));
      if (this.last === conn && this.db.isInTransaction()) await this.db.exec('ROLLBACK');
      for (const name of conn.statements) await this.db.exec('DEALLOCATE "' + name + '"').catch(() => {});
    } catch (err) {
      // The next unit of work starts from a clean protocol state regardless.
    }
    if (this.pinned === conn) this.pinned = null;
    if (this.last === conn) this.last = null;
  }
}

// A new cluster copied from the template, here rather than on the main thread, which may be busy
// loading the rest of the process meanwhile (launchEmbeddedPostgres). Its marker goes last, so a
// copy cut short is not taken for a cluster and is made again at the next start; the copying file
// around it tells that copy from a cluster that lost its marker (which is refused, not copied over).
function copyCluster(template, dir, markerName, copyingName) {
  const { cpSync, copyFileSync, rmSync, writeFileSync } = require('node:fs');
  const { join } = require('node:path');
  const marker = join(template, markerName);
  writeFileSync(join(dir, copyingName), '');
  cpSync(template, dir, { recursive: true, filter: (source) => source !== marker });
  copyFileSync(marker, join(dir, markerName));
  rmSync(join(dir, copyingName), { force: true });
}

// Postgres' own words on an open that failed (a PANIC reading pg_control, no valid checkpoint in
// pg_wal): PGlite reports only "Aborted()" and a WASM stack. Its HINT is left out: "initdb" would
// wipe the ledger.
function postgresSaid(said) {
  return (line) => {
    const m = /\b(PANIC|FATAL|DETAIL):\s+(.*)$/.exec(line);
    if (m && said.length < 6) said.push(m[1] + ': ' + m[2].replace(/\.$/, '').slice(0, 300));
    return false;
  };
}

(async () => {
  let db;
  let server;
  let wire;
  const said = [];
  try {
    if (workerData.copyFrom) copyCluster(workerData.copyFrom, workerData.dataDir, workerData.marker, workerData.copying);
    try {
      db = await PGlite.create(workerData.dataDir, { postgresqlconf: workerData.postgresqlconf, onStderr: postgresSaid(said) });
    } catch (err) {
      if (said.length === 0) throw err;
      parentPort.postMessage({ type: 'error', message: String((err && err.stack) || err), postgres: said });
      return;
    }
    if (workerData.initOnly) {
      // initdb's memory stays with the thread that ran it: this one closes and exits, taking it along.
      await db.close();
      parentPort.postMessage({ type: 'initialized' });
      parentPort.close();
      return;
    }
    wire = new WireServer(db);
    server = net.createServer((socket) => wire.accept(socket));
    server.maxConnections = workerData.maxConnections;
    await new Promise((ok, fail) => {
      server.once('error', fail);
      server.listen(workerData.port, '127.0.0.1', ok);
    });
    parentPort.postMessage({ type: 'ready', conn: '127.0.0.1:' + server.address().port });
  } catch (err) {
    if (db) await db.close().catch(() => {});
    parentPort.postMessage({ type: 'error', message: String((err && err.stack) || err) });
    return;
  }
  parentPort.on('message', async (msg) => {
    if (msg !== 'close') return;
    await new Promise((done) => {
      server.close(() => done());
      for (const c of wire.connections) c.socket.destroy();
    });
    // Let the closed connections' cleanup (rollback, deallocate) finish before PGlite closes.
    while (wire.busy || wire.jobs.length > 0) await new Promise((r) => setTimeout(r, 5));
    wire.stopped = true;
    // Closing PGlite checkpoints and releases the data directory for the next start.
    await db.close().catch(() => {});
    parentPort.postMessage({ type: 'closed' });
    parentPort.close();
  });
})();
`;
