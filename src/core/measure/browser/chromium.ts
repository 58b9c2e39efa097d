// Chromium found, started and held: headless, a throwaway profile in the run's folder, DevTools over a pipe, every
// request through the sides' gates (gate.ts: a proxy that forwards the site's origin only), no DNS, no UDP; on Linux
// with bubblewrap inside a sandbox of its own: its own network namespace (loopback only: a relay inside listens on
// 127.0.0.1 and hands each connection to its side's gate, a Unix socket in the run's folder), its own PID namespace,
// the system read-only, only its profile folder writable. Killed and its folder removed after the pass.
import { existsSync, openSync, readSync, closeSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { childProcess } from '../../lazyNode';
import { bubblewrapArgs, MAX_SOCKET_PATH, RUN_MARKER, type SandboxProbe } from '../machine/sandbox';
import { RELAY_PHP, type RelayConfig } from '../machine/relay';
import { Cdp } from './cdp';

/** Said when no Chromium is found. */
export const CHROMIUM_HINT = 'install Chromium (Debian/Ubuntu: sudo apt install chromium; Fedora: sudo dnf install chromium; macOS: brew install --cask chromium), or name its binary in WPBENCH_CHROMIUM';

const NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];

/** The machine's Chromium: WPBENCH_CHROMIUM, else chromium (chromium-browser, google-chrome) on PATH; Debian's launcher script is skipped for the binary it runs. */
export function findChromium(env: NodeJS.ProcessEnv): string | undefined {
  const given = env.WPBENCH_CHROMIUM;
  if (given) return existsSync(given) ? given : undefined;
  for (const dir of (env.PATH ?? '/usr/local/bin:/usr/bin:/bin').split(path.delimiter).filter(Boolean)) {
    for (const n of NAMES) {
      const p = path.join(dir, n);
      if (!existsSync(p)) continue;
      // Debian's /usr/bin/chromium is a shell script (flags, API keys, /dev/shm checks) around /usr/lib/chromium/chromium.
      if (isScript(p) && existsSync('/usr/lib/chromium/chromium')) return '/usr/lib/chromium/chromium';
      return p;
    }
  }
  return undefined;
}

function isScript(p: string): boolean {
  try {
    const fd = openSync(p, 'r');
    const b = Buffer.alloc(2);
    readSync(fd, b, 0, 2, 0);
    closeSync(fd);
    return b.toString() === '#!';
  } catch {
    return false;
  }
}

export interface RunningChromium {
  cdp: Cdp;
  /** "156.0.8078.108" */
  version: string;
  /** the proxy address a side's context is given ("http://127.0.0.1:PORT") */
  proxyOf: Record<string, string>;
  sandbox: 'bubblewrap' | 'none';
  sandboxNote?: string;
  pid?: number;
  stop: () => Promise<void>;
}

/** Chromium's flags: headless, nothing of its own on the network (no DNS: every name resolves to nothing), no UDP. */
export function chromiumArgs(profileDir: string, noSandbox: boolean): string[] {
  return [
    '--headless',
    '--remote-debugging-pipe',
    `--user-data-dir=${profileDir}`,
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-default-apps',
    '--disable-extensions',
    '--disable-sync',
    '--disable-domain-reliability',
    '--disable-breakpad',
    '--disable-client-side-phishing-detection',
    '--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider,InterestFeedContentSuggestions,AutofillServerCommunication,CertificateTransparencyComponentUpdater',
    '--metrics-recording-only',
    '--mute-audio',
    '--hide-scrollbars',
    '--disable-gpu',
    '--password-store=basic',
    '--use-mock-keychain',
    // No proxy of its own (a --proxy-server here would override the contexts'): each side's context gets its gate.
    '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
    ...(noSandbox ? ['--no-sandbox'] : []),
    'about:blank',
  ];
}

export interface LaunchOptions {
  bin: string;
  /** the pass's folder in the run's folder (profile, sockets, relay) */
  dir: string;
  /** each side's gate: a TCP port (no sandbox) or a Unix socket (sandboxed) */
  gates: Record<string, { port?: number; socketPath?: string }>;
  sandbox: SandboxProbe;
  php?: string;
  env: NodeJS.ProcessEnv;
  runId?: string;
  onChild?: (pid: number | undefined) => void;
  signal?: AbortSignal;
}

/** Whether the gates should listen on Unix sockets (Chromium in bubblewrap with a network of its own). */
export function sandboxedGates(sandbox: SandboxProbe, dir: string, php: string | undefined): boolean {
  return sandbox.name === 'bubblewrap' && !!php && path.join(dir, 'gate-baseline.sock').length <= MAX_SOCKET_PATH;
}

/** Starts Chromium (in its sandbox where the gates listen on sockets) and connects to it. */
export async function launchChromium(o: LaunchOptions): Promise<RunningChromium> {
  const profile = path.join(o.dir, 'profile');
  await fs.mkdir(profile, { recursive: true });
  const sides = Object.keys(o.gates);
  const sandboxed = sides.every((s) => o.gates[s].socketPath);
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const proxyOf: Record<string, string> = {};
  let bin = o.bin;
  let args: string[];
  if (sandboxed) {
    // Inside, each side's relay port: 18081, 18082 … (the sandbox's own loopback; nothing else listens there).
    const pairs: [string, string][] = sides.map((s, i) => [`tcp://127.0.0.1:${18081 + i}`, `unix://${o.gates[s].socketPath!}`]);
    sides.forEach((s, i) => (proxyOf[s] = `http://127.0.0.1:${18081 + i}`));
    const ready = path.join(o.dir, 'relay.ready');
    await fs.writeFile(path.join(o.dir, 'relay.php'), RELAY_PHP);
    // The relay first, Chromium once it listens (at most 10 s).
    const script = '"$1" -n "$2" "$3" & i=0; while [ ! -e "$4" ] && [ $i -lt 1000 ]; do sleep 0.01; i=$((i+1)); done; shift 4; exec "$@"';
    const inner = ['-c', script, 'wpbench', o.php!, path.join(o.dir, 'relay.php'), JSON.stringify({ pairs, ready } satisfies RelayConfig), ready, o.bin, ...chromiumArgs(profile, true)];
    const readable = ['/etc/chromium', '/etc/chromium.d', '/var/cache/fontconfig', '/usr/share/fonts'].filter((p) => existsSync(p));
    args = bubblewrapArgs({ mounts: [{ path: o.dir, writable: true }], readable, cwd: o.dir, bin: '/bin/sh', args: inner, ownNetwork: true, hardened: o.sandbox.hardened, limits: false, proc: true });
    bin = o.sandbox.bin!;
  } else {
    for (const s of sides) proxyOf[s] = `http://127.0.0.1:${o.gates[s].port}`;
    // Chromium's own sandbox needs user namespaces; as root it refuses to start with it.
    args = chromiumArgs(profile, asRoot);
  }
  const child: ChildProcess = childProcess().spawn(bin, args, {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
    env: { PATH: o.env.PATH ?? '/usr/bin:/bin', HOME: o.dir, XDG_CONFIG_HOME: path.join(o.dir, 'config'), XDG_CACHE_HOME: path.join(o.dir, 'cache'), ...(o.runId ? { [RUN_MARKER]: o.runId } : {}) },
    detached: true,
  });
  o.onChild?.(child.pid);
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  };
  const cdp = new Cdp(child.stdio[3] as Writable, child.stdio[4] as Readable);
  try {
    const spawnError = new Promise<never>((_, reject) => {
      child.once('error', (e) => reject(new Error(`Chromium did not start: ${e.message}`)));
      child.once('exit', (code) => reject(new Error(`Chromium exited (${code}) before it answered: ${stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 400)}`)));
    });
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`Chromium did not answer within 60 s: ${stderr.trim().slice(-300)}`)), 60_000).unref());
    const v = await Promise.race([cdp.send<{ product: string }>('Browser.getVersion'), spawnError, timeout]);
    const version = /\/([\d.]+)/.exec(v.product)?.[1] ?? v.product;
    return { cdp, version, proxyOf, sandbox: sandboxed ? 'bubblewrap' : 'none', ...(sandboxed ? {} : { sandboxNote: o.sandbox.name === 'bubblewrap' ? 'its folder\'s path is too long for a Unix socket: Chromium runs on the machine\'s network, every request still through the gates' : `${o.sandbox.why ?? 'no sandbox'}: Chromium runs as your user, every request through the gates` }), pid: child.pid, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
