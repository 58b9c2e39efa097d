// CLI entry of the emulator: `node dist/emulator.js [--port 8787] [--host 127.0.0.1] …`.

import { isLoopback, parseEmulatorArgs, USAGE } from './args';
import { DEMO_KEYS, startEmulator } from './server';

async function main(): Promise<void> {
  let args;
  try {
    args = parseEmulatorArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`wp-bench emulator: ${(err as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  // Defence in depth: the default is loopback; another address only when typed out with --host.
  if (!isLoopback(args.host) && !args.hostExplicit) {
    process.stderr.write('wp-bench emulator: refusing to bind a non-loopback address without an explicit --host\n');
    process.exitCode = 2;
    return;
  }

  const emu = await startEmulator({
    host: args.host,
    port: args.port,
    apiRoot: args.apiRoot,
    latencyMs: args.latencyMs,
    seed: args.seed,
    rateLimitFormat: args.rateLimitFormat,
  });

  const width = Math.max(...DEMO_KEYS.map((k) => k.key.length));
  const lines = [
    'WP Bench API emulator: synthetic data (invented numbers, for tests and demos only)',
    '',
    `  API address (apiUrl): ${emu.url}`,
    `  endpoints:            ${emu.url}/v1/plugins/{slug}, ${emu.url}/v1/themes/{slug}, ${emu.url}/v1/me`,
    '',
    '  demo API keys:',
    ...DEMO_KEYS.map((k) => `    ${k.key.padEnd(width)}  ${k.label}`),
    '',
    `  try: curl -H "Authorization: Bearer ${DEMO_KEYS[0].key}" ${emu.url}/v1/plugins/akismet`,
  ];
  if (!isLoopback(args.host)) lines.push('', `  WARNING: bound to ${args.host}: reachable from other machines.`);
  if (args.latencyMs) lines.push(`  latency: ${args.latencyMs} ms per response`);
  lines.push('', 'Press Ctrl+C to stop.');
  process.stdout.write(lines.join('\n') + '\n');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping the emulator\n`);
    const force = setTimeout(() => process.exit(0), 2000);
    force.unref();
    void emu.close().then(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: NodeJS.ErrnoException) => {
  const hint = err.code === 'EADDRINUSE' ? ' (the port is in use: pick another with --port)' : '';
  process.stderr.write(`wp-bench emulator: ${err.message}${hint}\n`);
  process.exitCode = 1;
});
