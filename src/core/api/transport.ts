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

export type TransportFailure = 'timeout' | 'network' | 'too-large' | 'aborted';

export class TransportError extends Error {
  constructor(readonly failure: TransportFailure, message: string) {
    super(message);
    this.name = 'TransportError';
  }
}

export interface HttpTransport {
  request(req: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}

export interface TransportOptions {
  /** Connections kept to the API origin. */
  connections: number;
  timeoutMs: number;
  /** Name resolution override (tests simulate DNS failures without touching the network). */
  lookup?: import('node:net').LookupFunction;
}

export type TransportFactory = (options: TransportOptions) => HttpTransport | Promise<HttpTransport>;
