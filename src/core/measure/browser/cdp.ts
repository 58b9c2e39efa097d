// The Chrome DevTools Protocol over Chromium's --remote-debugging-pipe (file descriptors 3 and 4: JSON messages ended
// by a NUL byte). A dozen commands drive a load; a driver from npm (playwright-core, puppeteer-core: megabytes) would
// not fit the extension's 1 MB package, so this is the whole client: commands with their answers, events, sessions.
import type { Readable, Writable } from 'node:stream';

type Listener = (params: Record<string, unknown>, sessionId: string | undefined) => void;

export class CdpError extends Error {}

export class Cdp {
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; method: string }>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private buffered: Buffer[] = [];
  private closed: Error | undefined;

  constructor(
    private readonly out: Writable,
    input: Readable,
  ) {
    input.on('data', (chunk: Buffer) => this.receive(chunk));
    input.on('close', () => this.fail(new CdpError('Chromium closed its DevTools pipe')));
    input.on('error', (e: Error) => this.fail(new CdpError(`Chromium's DevTools pipe failed: ${e.message}`)));
    out.on('error', (e: Error) => this.fail(new CdpError(`Chromium's DevTools pipe failed: ${e.message}`)));
  }

  private receive(chunk: Buffer): void {
    let start = 0;
    for (let i = chunk.indexOf(0); i >= 0; i = chunk.indexOf(0, start)) {
      this.buffered.push(chunk.subarray(start, i));
      const text = Buffer.concat(this.buffered).toString('utf8');
      this.buffered = [];
      start = i + 1;
      let msg: { id?: number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { message: string }; sessionId?: string };
      try {
        msg = JSON.parse(text);
      } catch {
        continue;
      }
      if (msg.id !== undefined) {
        const w = this.waiting.get(msg.id);
        if (!w) continue;
        this.waiting.delete(msg.id);
        if (msg.error) w.reject(new CdpError(`${w.method}: ${msg.error.message}`));
        else w.resolve(msg.result);
      } else if (msg.method) {
        for (const l of this.listeners.get(msg.method) ?? []) l(msg.params ?? {}, msg.sessionId);
      }
    }
    if (start < chunk.length) this.buffered.push(chunk.subarray(start));
  }

  private fail(e: Error): void {
    this.closed ??= e;
    for (const w of this.waiting.values()) w.reject(e);
    this.waiting.clear();
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  send<T = any>(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<T> {
    if (this.closed) return Promise.reject(this.closed);
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject, method });
      this.out.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  }

  /** Listens to an event; returns the function that stops listening. */
  on(method: string, l: Listener): () => void {
    let set = this.listeners.get(method);
    if (!set) this.listeners.set(method, (set = new Set()));
    set.add(l);
    return () => set.delete(l);
  }
}
