// Command-line flags of the emulator entry point (kept apart from main.ts so tests can parse without serving).

import type { RateLimitFormat } from './server';

export interface EmulatorArgs {
  host: string;
  /** True when --host was given: only then may the emulator bind a non-loopback address. */
  hostExplicit: boolean;
  port: number;
  apiRoot: string;
  latencyMs: number;
  seed?: number;
  rateLimitFormat: RateLimitFormat;
  help: boolean;
}

export const USAGE = `Usage: node dist/emulator.js [options]

Local emulator of the WP Bench API, serving synthetic data.

  --port N                 port to listen on (default 8787; 0 = any free port)
  --host ADDR              address to bind (default 127.0.0.1; a non-loopback address exposes the emulator to the network)
  --api-root PATH          path before /v1 (default /api)
  --latency MS             delay before each response (default 0)
  --seed N                 dataset seed (default fixed)
  --rate-limit-format F    X-RateLimit-Reset as epoch | seconds | iso | mysql (default epoch)
  -h, --help               this text
`;

const FORMATS: RateLimitFormat[] = ['epoch', 'seconds', 'iso', 'mysql'];

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** Parses argv (without node and script); throws an Error with a human message on bad input. */
export function parseEmulatorArgs(argv: string[]): EmulatorArgs {
  const out: EmulatorArgs = {
    host: '127.0.0.1',
    hostExplicit: false,
    port: 8787,
    apiRoot: '/api',
    latencyMs: 0,
    rateLimitFormat: 'epoch',
    help: false,
  };
  const int = (flag: string, v: string | undefined, max: number): number => {
    if (v === undefined || !/^\d+$/.test(v) || Number(v) > max) throw new Error(`${flag} needs a whole number from 0 to ${max}`);
    return Number(v);
  };
  for (let i = 0; i < argv.length; i++) {
    let flag = argv[i];
    let value: string | undefined;
    const eq = flag.indexOf('=');
    if (flag.startsWith('--') && eq > 0) {
      value = flag.slice(eq + 1);
      flag = flag.slice(0, eq);
    }
    const next = () => value ?? argv[++i];
    switch (flag) {
      case '--port':
        out.port = int(flag, next(), 65535);
        break;
      case '--host': {
        const h = next();
        if (!h) throw new Error('--host needs an address');
        out.host = h;
        out.hostExplicit = true;
        break;
      }
      case '--api-root': {
        const r = next();
        if (r === undefined || !/^\/?[A-Za-z0-9._~\-/]*$/.test(r)) throw new Error('--api-root needs a path such as /api');
        out.apiRoot = r;
        break;
      }
      case '--latency':
        out.latencyMs = int(flag, next(), 600_000);
        break;
      case '--seed':
        out.seed = int(flag, next(), 0xffffffff);
        break;
      case '--rate-limit-format': {
        const f = next() as RateLimitFormat;
        if (!FORMATS.includes(f)) throw new Error(`--rate-limit-format must be one of ${FORMATS.join(', ')}`);
        out.rateLimitFormat = f;
        break;
      }
      case '-h':
      case '--help':
        out.help = true;
        break;
      default:
        throw new Error(`unknown option ${argv[i]}`);
    }
  }
  return out;
}
