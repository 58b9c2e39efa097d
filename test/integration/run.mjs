// `npm run test:integration`: builds the suite, starts the emulator on 127.0.0.1, copies the sample site to a
// temp folder and runs the mocha suite inside a real VS Code — code-server + headless Chromium by default,
// @vscode/test-electron when WPBENCH_TEST_RUNNER=electron (needs VS Code's download server).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { runIntegration } from './harness/runIntegration.mjs';
import { selectedTargets } from './harness/runInCodeServer.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SUITE_DIR = path.join(ROOT, 'out', 'test', 'integration', 'suite');

export async function buildSuite() {
  const entries = fs.readdirSync(path.join(ROOT, 'test/integration/suite')).filter((f) => f.endsWith('.ts')).map((f) => path.join(ROOT, 'test/integration/suite', f));
  fs.rmSync(SUITE_DIR, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: entries,
    outdir: SUITE_DIR,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    mainFields: ['module', 'main'],
    logLevel: 'warning',
  });
}

export async function startEmulator(extraArgs = []) {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/emulator.js'), '--port', '0', ...extraArgs], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`emulator did not start: ${out}`)), 10_000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /API address \(apiUrl\):\s+(\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`emulator exited with ${code}: ${out}`)));
  });
  child.stdout.resume();
  return { url, stop: () => child.kill('SIGTERM') };
}

export function copyFixture(name = 'sample-site') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-ws-'));
  fs.cpSync(path.join(ROOT, 'test/fixtures', name), dir, { recursive: true });
  return dir;
}

const DEMO_KEYS = ['wpb_demo_starter_', 'wpb_demo_pro_', 'wpb_demo_scale_', 'wpb_demo_revoked_', 'wpb_demo_suspended_'];

function filesUnder(dirs) {
  const out = [];
  for (const dir of dirs) {
    for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) out.push(path.join(entry.parentPath ?? entry.path, entry.name));
    }
  }
  return out;
}

function countFiles(dirs) {
  return filesUnder(dirs).length;
}

/** Files that contain any demo key (SecretStorage lives in the browser profile, not here). */
export function findKeys(dirs) {
  return filesUnder(dirs).filter((f) => {
    const text = fs.readFileSync(f).toString('latin1');
    return DEMO_KEYS.some((k) => text.includes(k));
  });
}

async function main() {
  await buildSuite();
  let failed = 0;
  const runs = [
    { name: 'trusted workspace', suite: 'trusted', disableWorkspaceTrust: true },
    { name: 'untrusted workspace', suite: 'untrusted', disableWorkspaceTrust: false },
    { name: 'a PHP project that is not WordPress', suite: 'dormant', disableWorkspaceTrust: true, fixture: 'laravel-app' },
  ];
  const electron = process.env.WPBENCH_TEST_RUNNER === 'electron';
  // Every run on each VS Code we support: the minimum (1.100, Node 20) and the newest (Node 24).
  const targets = electron ? [{ name: 'electron', vscode: '' }] : selectedTargets();
  for (const target of targets) {
    const emulator = await startEmulator(); // a fresh quota for each VS Code
    try {
      for (const run of runs) {
        console.log(`\n=== integration: ${run.name} — VS Code ${target.vscode || '(downloaded)'} (${electron ? '@vscode/test-electron' : `code-server ${target.codeServer} + Chromium`}) ===`);
        const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-udd-'));
        const workspace = copyFixture(run.fixture);
        const code = await runIntegration({
          extensionTestsPath: path.join(SUITE_DIR, 'index.js'),
          workspace,
          userDataDir,
          env: { WPBENCH_TEST_API_URL: emulator.url, WPBENCH_TEST_SUITE: run.suite, WPBENCH_TEST_HOOKS: '1', WPBENCH_EXPECT_VSCODE: target.vscode },
          disableWorkspaceTrust: run.disableWorkspaceTrust,
          timeoutMs: 240_000,
          codeServerDir: target.dir,
        });
        if (code !== 0) {
          failed++;
          console.error(`integration (${run.name}, VS Code ${target.vscode}) failed with exit code ${code}`);
        }
        // After a full run, failures included: no key may be in logs, settings, global storage (the cache) or the workspace.
        const leaks = findKeys([userDataDir, workspace]);
        if (leaks.length) {
          failed++;
          console.error(`integration (${run.name}): the API key was written to ${leaks.join(', ')}`);
        } else {
          console.log(`key leak check (${run.name}): no demo key in ${countFiles([userDataDir, workspace])} files of user data, logs, cache and workspace`);
        }
        // Passed and clean: nothing left in the temp folder. Otherwise kept, for a look at its logs.
        if (code === 0 && !leaks.length) for (const d of [userDataDir, workspace]) fs.rmSync(d, { recursive: true, force: true });
        else console.error(`kept for inspection: ${userDataDir}, ${workspace}`);
      }
    } finally {
      emulator.stop();
    }
  }
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
