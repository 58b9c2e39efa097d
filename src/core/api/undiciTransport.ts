// undici implementation of HttpTransport. Bundled separately (dist/http.js) so activation never loads undici.
import { l10n } from '../l10n';
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { isLoopbackHost, TransportError, type HttpRequest, type HttpResponse, type HttpTransport, type TransportOptions } from './transport';

function describe(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string } };
  return e?.code ?? e?.cause?.code ?? e?.message ?? l10n.t('unknown error');
}

const PROXY_ENV = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

interface Dispatchers {
  /** Straight to the API: every loopback address, and everything when no proxy is set. */
  direct: Dispatcher;
  /** Through the proxy (NO_PROXY still honoured); undefined without one. */
  proxied?: Dispatcher;
}

/**
 * The dispatchers. undici's proxy agent tunnels every request with CONNECT, so the proxy sees the target host and
 * port; the API's own headers (the key) travel inside TLS. A loopback API address never goes through a proxy: the
 * proxy would resolve "127.0.0.1" on its side, and the only plain http:// allowed (loopback) would show it the key.
 * http.proxyStrictSSL relaxes the proxy's own certificate only; the API's is always verified.
 */
function dispatchers(options: TransportOptions): Dispatchers {
  const base = {
    connections: Math.max(1, options.connections),
    pipelining: 1,
    keepAliveTimeout: 30_000,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connect: { timeout: options.timeoutMs, ...(options.lookup ? { lookup: options.lookup } : {}) },
  };
  const direct = new Agent(base);
  const p = options.proxy;
  const proxyTls = { rejectUnauthorized: p?.strictSSL !== false };
  type ProxyOptions = ConstructorParameters<typeof EnvHttpProxyAgent>[0];
  if (p?.proxy) {
    const proxied = new EnvHttpProxyAgent({
      ...base,
      httpProxy: p.proxy,
      httpsProxy: p.proxy,
      noProxy: p.noProxy ?? process.env.NO_PROXY ?? process.env.no_proxy ?? '',
      ...(p.authorization ? { token: p.authorization } : {}),
      proxyTls,
    } as ProxyOptions);
    return { direct, proxied };
  }
  if (PROXY_ENV.some((k) => process.env[k])) {
    return { direct, proxied: new EnvHttpProxyAgent({ ...base, ...(p?.noProxy ? { noProxy: p.noProxy } : {}), proxyTls } as ProxyOptions) };
  }
  return { direct };
}

/** The dispatcher for one URL; plain http:// is only ever sent straight to loopback. */
function route(url: string, d: Dispatchers): Dispatcher {
  const { protocol, hostname } = new URL(url);
  if (isLoopbackHost(hostname)) return d.direct;
  if (protocol !== 'https:') throw new TransportError('network', l10n.t('plain http:// is only allowed for loopback addresses'));
  return d.proxied ?? d.direct;
}

export function createUndiciTransport(options: TransportOptions): HttpTransport {
  const agents = dispatchers(options);

  return {
    async request(req: HttpRequest): Promise<HttpResponse> {
      const dispatcher = route(req.url, agents);
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, req.timeoutMs);
      const onOuterAbort = () => controller.abort();
      req.signal?.addEventListener('abort', onOuterAbort, { once: true });
      try {
        const res = await request(req.url, {
          method: 'GET',
          headers: req.headers,
          dispatcher,
          signal: controller.signal,
        });
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of res.body) {
          size += (chunk as Buffer).length;
          if (size > req.maxBytes) {
            res.body.destroy();
            throw new TransportError('too-large', l10n.t('the response is larger than {0} KiB', Math.round(req.maxBytes / 1024)));
          }
          chunks.push(chunk as Buffer);
        }
        return { status: res.statusCode, headers: res.headers as HttpResponse['headers'], body: Buffer.concat(chunks) };
      } catch (err) {
        if (err instanceof TransportError) throw err;
        if (timedOut) throw new TransportError('timeout', l10n.t('no complete answer within {0} ms', req.timeoutMs));
        if (req.signal?.aborted) throw new TransportError('aborted', 'cancelled');
        const code = describe(err);
        if (/Timeout/i.test(code)) throw new TransportError('timeout', code);
        // Headers over undici's limit, or an answer that is not HTTP: the same again next time, never retried.
        if (code === 'UND_ERR_HEADERS_OVERFLOW') throw new TransportError('too-large', l10n.t('the response headers are too large'));
        if ((err as { name?: string })?.name === 'HTTPParserError') throw new TransportError('malformed', l10n.t('not a valid HTTP response: {0}', code));
        throw new TransportError('network', code);
      } finally {
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onOuterAbort);
      }
    },
    async close() {
      // Closing means "no more answers are wanted": requests still in flight (a trickling body) are cut off now.
      await Promise.all([agents.direct, agents.proxied].map((a) => a?.destroy().catch(() => undefined)));
    },
  };
}
