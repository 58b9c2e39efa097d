// `npm run demo`: the emulator plus a real VS Code in the browser (code-server) on the sample site, with the
// extension installed and already pointed at the emulator with a demo key. Prints the URL; Ctrl+C stops it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCodeServer, startCodeServer, installExtension } from '../test/integration/harness/runInCodeServer.mjs';
import { copyFixture, startEmulator } from '../test/integration/run.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEMO_KEY = 'wpb_demo_pro_3b9d6f2a8e1c4075';

ensureCodeServer();
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const vsix = path.join(ROOT, `wp-bench-${pkg.version}.vsix`);
execFileSync('npx', ['vsce', 'package', '--no-dependencies', '--no-rewrite-relative-links', '-o', vsix], { cwd: ROOT, stdio: 'ignore' });

const emulator = await startEmulator();
const workspace = copyFixture();
const extensionsDir = fs.mkdtempSync(path.join(fs.realpathSync('/tmp'), 'wpb-demo-ext-'));
await installExtension(vsix, extensionsDir);
// The demo key is seeded into the extension on first start through this variable (demo builds only read it
// when it is a demo key for a loopback API address).
const server = await startCodeServer({
  extensionsDir,
  settings: { 'wpBench.apiUrl': emulator.url, 'workbench.colorTheme': 'Default Dark Modern' },
  env: { WPBENCH_DEMO_KEY: DEMO_KEY },
});
const url = `${server.baseUrl}/?folder=${encodeURIComponent(workspace)}`;
console.log(`\nWP Bench demo (synthetic data)\n\n  VS Code:   ${url}\n  emulator:  ${emulator.url}\n  demo key:  ${DEMO_KEY} (already set)\n\nCtrl+C stops everything.`);
const stop = async () => {
  emulator.stop();
  await server.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
