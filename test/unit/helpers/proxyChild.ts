// One lookup with the editor's proxy settings, in a child process: NODE_EXTRA_CA_CERTS (read only at start-up) can
// then trust a test certificate. Argument: JSON { apiUrl, key, proxy }. `*.wpbench.test` resolves to 127.0.0.1
// (no DNS). Prints { state } or { error }.
import * as dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { BenchClient } from '../../../src/core/api/client';
import { createUndiciTransport } from '../../../src/core/api/undiciTransport';

const lookup: LookupFunction = (hostname, options, callback) => {
  if (!hostname.endsWith('.wpbench.test')) return dns.lookup(hostname, options, callback);
  const cb = callback as (err: Error | null, address: string | dns.LookupAddress[], family?: number) => void;
  if (options.all) cb(null, [{ address: '127.0.0.1', family: 4 }]);
  else cb(null, '127.0.0.1', 4);
};

async function main(): Promise<void> {
  const { apiUrl, key, proxy } = JSON.parse(process.argv[2]);
  const client = new BenchClient({ apiUrl, getKey: () => key, proxy, transport: (o) => createUndiciTransport({ ...o, lookup }), sleep: async () => undefined });
  try {
    const r = await client.lookup('plugin', 'akismet');
    process.stdout.write(JSON.stringify({ state: r.state }));
  } catch (err) {
    process.stdout.write(JSON.stringify({ error: (err as Error).message }));
  } finally {
    await client.dispose();
  }
}

void main();
