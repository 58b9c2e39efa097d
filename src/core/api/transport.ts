// The HTTP seam: the client talks to this interface; undici implements it in its own lazily loaded bundle.
import type { HeaderBag } from './quota';

export interface HttpRequest {
  url: string;
  headers: Record<string, string>;
  /** Deadline for the whole exchange: connect, headers and body. */
  timeoutMs: number;
  /** Bodies larger than this are cut off and reported, never buffered whole. */
  maxBytes: number;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: HeaderBag;
  body: Buffer;
}

/** `malformed`: the answer is not HTTP (a parser error); like `too-large`, sending it again cannot help. */
export type TransportFailure = 'timeout' | 'network' | 'too-large' | 'malformed' | 'aborted';

const FAILURES: readonly string[] = ['timeout', 'network', 'too-large', 'malformed', 'aborted'];

export class TransportError extends Error {
  constructor(readonly failure: TransportFailure, message: string) {
    super(message);
    this.name = 'TransportError';
  }
}

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1']);

/** This machine's own loopback (a URL's hostname): the only place plain http:// and the key may go unencrypted. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/**
 * The error as a TransportError, from whichever copy of this module threw it: the transport is bundled apart from
 * the client (dist/http.js), so `instanceof` does not see its class (a timeout then read as a network error: retried).
 */
export function asTransportError(err: unknown): TransportError | undefined {
  if (err instanceof TransportError) return err;
  const e = err as { name?: unknown; failure?: unknown; message?: unknown } | null;
  if (e && typeof e === 'object' && e.name === 'TransportError' && typeof e.failure === 'string' && FAILURES.includes(e.failure)) {
    return new TransportError(e.failure as TransportFailure, String(e.message ?? ''));
  }
  return undefined;
}

export interface HttpTransport {
  request(req: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}

/**
 * A proxy for the API's requests (VS Code's http.* settings; the CLI uses HTTP_PROXY / HTTPS_PROXY / NO_PROXY). A
 * loopback API address never goes through it: "127.0.0.1" would be resolved on the proxy's side, and plain http://
 * (allowed only on loopback) would carry the key readable by the proxy.
 */
export interface ProxySettings {
  /** Proxy for http:// and https:// API addresses (as VS Code's single http.proxy). */
  proxy?: string;
  /** Hosts that never go through the proxy (comma-separated, NO_PROXY syntax). */
  noProxy?: string;
  /** `Proxy-Authorization` value sent to the proxy (CONNECT only: the tunnel carries the API's own headers). */
  authorization?: string;
  /** Verify the proxy's own certificate (default true; http.proxyStrictSSL). The API's certificate is always verified. */
  strictSSL?: boolean;
}

export interface TransportOptions {
  /** Connections kept to the API origin. */
  connections: number;
  timeoutMs: number;
  /** Name resolution override (tests simulate DNS failures without touching the network). */
  lookup?: import('node:net').LookupFunction;
  /** Explicit proxy settings; without them HTTP_PROXY / HTTPS_PROXY / NO_PROXY from the environment apply. */
  proxy?: ProxySettings;
}

export type TransportFactory = (options: TransportOptions) => HttpTransport | Promise<HttpTransport>;
