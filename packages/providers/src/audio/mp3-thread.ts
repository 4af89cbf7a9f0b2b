/**
 * MP3 encoding off the event loop: LAME in JavaScript costs about a second of CPU per minute of audio,
 * and on the event loop even in 5 ms slices it delayed every other request of the process (standalone
 * serves them all from one loop). One worker thread per process encodes for every speech request:
 * each encode keeps at most one chunk in flight, so the thread takes the encodes in turn, and a
 * process with two cores encodes on the one its event loop does not use.
 *
 * The thread starts with the first encode (its ~0.5 s of loading lamejs is the thread's, not the
 * loop's) and stops after `idleMs` without one, so an idle media service does not keep its memory.
 * Its code is a string evaluated by the worker, so it runs the same under jest's TypeScript and from
 * dist. If it dies (an exception, its memory cap), the encodes in flight fail and the next starts a
 * new thread.
 */
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
// The package's CommonJS entry is a browser IIFE that exports nothing under require(): evaluate it and take its global.
const lamejs = new Function(readFileSync(workerData.bundle, 'utf8') + '\\nreturn lamejs;')();
const FRAME = 1152;
const encoders = new Map();

function concat(parts) {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(new Uint8Array(p.buffer, p.byteOffset, p.byteLength), at);
    at += p.length;
  }
  return out;
}

// At most one MPEG frame's samples per call, de-interleaved for stereo.
function encodeFrames(lame, channels, samples) {
  if (channels === 1) return lame.encodeBuffer(samples);
  const left = new Int16Array(samples.length / 2);
  const right = new Int16Array(samples.length / 2);
  for (let i = 0; i < left.length; i++) {
    left[i] = samples[i * 2];
    right[i] = samples[i * 2 + 1];
  }
  return lame.encodeBuffer(left, right);
}

parentPort.on('message', (m) => {
  try {
    let out;
    if (m.op === 'open') {
      encoders.set(m.id, { channels: m.channels, lame: new lamejs.Mp3Encoder(m.channels, m.sampleRate, m.kbps) });
      out = new Uint8Array(0);
    } else if (m.op === 'drop') {
      encoders.delete(m.id);
      return;
    } else {
      const e = encoders.get(m.id);
      if (!e) throw new Error('no such encoder: ' + m.id);
      const parts = [];
      if (m.op === 'encode') {
        for (let at = 0; at < m.samples.length; at += FRAME * e.channels)
          parts.push(encodeFrames(e.lame, e.channels, m.samples.subarray(at, at + FRAME * e.channels)));
      } else {
        parts.push(e.lame.flush());
        encoders.delete(m.id);
      }
      out = concat(parts);
    }
    parentPort.postMessage({ seq: m.seq, bytes: out }, [out.buffer]);
  } catch (err) {
    parentPort.postMessage({ seq: m.seq, error: String((err && err.message) || err) });
  }
});
`;

type Request =
  | { op: 'open'; id: number; channels: number; sampleRate: number; kbps: number }
  | { op: 'encode'; id: number; samples: Int16Array }
  | { op: 'flush'; id: number }
  | { op: 'drop'; id: number };
type Reply = { seq: number; bytes?: Uint8Array; error?: string };

/** One encode on the thread: `encode` each piece of samples in order, then `flush` once, or `close` to abandon it. */
export interface Mp3Session {
  /** Takes `samples`: when they fill their buffer it is moved to the thread, and they are empty after. */
  encode(samples: Int16Array): Promise<Uint8Array>;
  flush(): Promise<Uint8Array>;
  /** Frees the encoder on the thread (after a flush, or when the encode is abandoned). */
  close(): void;
}

export interface Mp3ThreadOptions {
  /** How long the thread stays up without an encode (default 30 s). */
  idleMs?: number;
  /** The thread's heap cap: an encoder that runs away kills its thread, not the process. */
  maxHeapMb?: number;
}

export class Mp3Thread {
  private worker?: Worker;
  /** Starts of the thread: a session from an earlier thread is refused at once. */
  private generation = 0;
  private readonly pending = new Map<number, { resolve: (b: Uint8Array) => void; reject: (e: Error) => void }>();
  private seq = 0;
  private ids = 0;
  private sessions = 0;
  private idleTimer?: NodeJS.Timeout;
  private readonly idleMs: number;
  private readonly maxHeapMb: number;

  constructor(opts: Mp3ThreadOptions = {}) {
    this.idleMs = opts.idleMs ?? 30_000;
    this.maxHeapMb = opts.maxHeapMb ?? 64;
  }

  /** The thread's id while it runs (tests see it start, stop and come back). */
  get threadId(): number | undefined {
    return this.worker?.threadId;
  }

  async open(channels: number, sampleRate: number, kbps: number): Promise<Mp3Session> {
    const worker = this.start();
    const generation = this.generation;
    const id = ++this.ids;
    this.sessions++;
    let open = true;
    const release = () => {
      if (!open) return false;
      open = false;
      this.sessions--;
      this.idleCheck();
      return true;
    };
    const call = (req: Request, transfer?: ArrayBuffer[]) => {
      if (generation !== this.generation) return Promise.reject(new Error('the MP3 encoder thread stopped during this encode'));
      return this.call(req, transfer);
    };
    const close = () => {
      if (release() && this.worker === worker) worker.postMessage({ op: 'drop', id } satisfies Request);
    };
    try {
      await call({ op: 'open', id, channels, sampleRate, kbps });
    } catch (err) {
      close();
      throw err;
    }
    return {
      encode: (samples) => {
        // Samples that fill their buffer (WavReader's, and what wavToMp3 gathers) move to the thread
        // without a copy; a view into a larger buffer is copied, so the rest of that buffer stays here.
        const own = samples.byteOffset === 0 && samples.byteLength === samples.buffer.byteLength ? samples : samples.slice();
        return call({ op: 'encode', id, samples: own }, [own.buffer as ArrayBuffer]);
      },
      // The thread forgets the encoder once it has flushed it.
      flush: () => call({ op: 'flush', id }).finally(release),
      close,
    };
  }

  /** Stops the thread now (tests; a process that exits does not need it). */
  async stop(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    if (!worker) return;
    this.fail(worker, new Error('the MP3 encoder thread was stopped'));
    await worker.terminate();
  }

  private start(): Worker {
    clearTimeout(this.idleTimer);
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { bundle: require.resolve('@breezystack/lamejs') },
      resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb },
    });
    worker.unref(); // referenced only while it owes an answer
    worker.on('message', (reply: Reply) => {
      const p = this.pending.get(reply.seq);
      if (!p) return;
      this.pending.delete(reply.seq);
      if (this.pending.size === 0) worker.unref();
      if (reply.error !== undefined) p.reject(new Error(`MP3 encoder: ${reply.error}`));
      else p.resolve(reply.bytes!);
    });
    worker.on('error', (err) => this.fail(worker, new Error(`the MP3 encoder thread failed: ${err.message}`)));
    worker.on('exit', (code) => this.fail(worker, new Error(`the MP3 encoder thread exited (${code})`)));
    this.worker = worker;
    this.generation++;
    return worker;
  }

  private call(req: Request, transfer?: ArrayBuffer[]): Promise<Uint8Array> {
    const worker = this.worker!;
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) worker.ref();
      this.pending.set(seq, { resolve, reject });
      worker.postMessage({ seq, ...req }, transfer);
    });
  }

  /** The thread is gone: everything it owed fails, and the next encode starts another. */
  private fail(worker: Worker, err: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.generation++;
    const owed = [...this.pending.values()];
    this.pending.clear();
    for (const p of owed) p.reject(err);
  }

  private idleCheck(): void {
    if (this.sessions > 0 || !this.worker) return;
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.idleTimer = setTimeout(() => {
      if (this.sessions > 0 || this.worker !== worker) return;
      this.fail(worker, new Error('the MP3 encoder thread stopped while idle'));
      void worker.terminate();
    }, this.idleMs);
    this.idleTimer.unref();
  }
}

/** The thread every speech request of this process encodes on. */
export const mp3Thread = new Mp3Thread();
