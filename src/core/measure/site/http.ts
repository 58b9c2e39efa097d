// One request to the throwaway site, timed from sending to the first byte of the response. Loopback only.
import type * as Http from 'node:http';
import { http } from '../../lazyNode';

export interface SiteResponse {
  status: number;
  ttfbMs: number;
  headers: Http.IncomingHttpHeaders;
  body: string;
}

const MAX_BODY = 4 * 1024 * 1024;

/** `socketPath`: the site is reached through a Unix socket (the sandbox's relay), the URL only names the path. */
export function siteRequest(baseUrl: string, pathAndQuery: string, headers: Record<string, string>, timeoutMs: number, signal?: AbortSignal, socketPath?: string): Promise<SiteResponse> {
  const url = new URL(pathAndQuery, baseUrl);
  if (url.hostname !== '127.0.0.1') return Promise.reject(new Error(`refusing to request ${url.hostname}: the site listens on 127.0.0.1 only`));
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const req = http().request(url, { method: 'GET', headers: { ...headers, Connection: 'close' }, agent: false, timeout: timeoutMs, signal, ...(socketPath ? { socketPath } : {}) }, (res) => {
      const ttfbMs = Number(process.hrtime.bigint() - t0) / 1e6;
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= MAX_BODY) chunks.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ttfbMs, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from the site within ${Math.round(timeoutMs / 1000)} s`)));
    req.on('error', reject);
    req.end();
  });
}
