// Run the compiled integration suite in a real VS Code and exit with its code.
//
//   node test/integration/harness/runIntegration.mjs [--extension <dir>] [--tests <suite index.js>]
//        [--workspace <dir>] [--timeout <ms>] [--trust] [--verbose]
//
// Defaults: extension = repo root, tests = out/test/integration/suite/index.js,
// workspace = test/fixtures (when it exists; otherwise no folder is opened).
//
// Runner: WPBENCH_TEST_RUNNER=electron → @vscode/test-electron (downloads VS Code: needs network
// access to update.code.visualstudio.com); anything else (default, also in CI) → code-server in
// headless Chromium (./runInCodeServer.mjs; install it with scripts/install-code-server.sh).
//
// Programmatic: `import { runIntegration } from './runIntegration.mjs'` → Promise<number>.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '..', '..', '..');

export const DEFAULTS = {
  extensionDevelopmentPath: REPO_ROOT,
  extensionTestsPath: path.join(REPO_ROOT, 'out', 'test', 'integration', 'suite', 'index.js'),
  workspace: path.join(REPO_ROOT, 'test', 'fixtures'),
};

/**
 * @param {{ extensionDevelopmentPath?: string, extensionTestsPath?: string, workspace?: string,
 *           env?: Record<string,string>, timeoutMs?: number, settings?: object,
 *           disableWorkspaceTrust?: boolean, verbose?: boolean, runner?: 'electron'|'code-server' }} [opts]
 * @returns {Promise<number>} the suite's exit code
 */
export async function runIntegration(opts = {}) {
  const extensionDevelopmentPath = path.resolve(opts.extensionDevelopmentPath ?? DEFAULTS.extensionDevelopmentPath);
  const extensionTestsPath = path.resolve(opts.extensionTestsPath ?? DEFAULTS.extensionTestsPath);
  let workspace = opts.workspace ?? DEFAULTS.workspace;
  if (workspace && !fs.existsSync(workspace)) {
    if (opts.workspace) throw new Error(`workspace ${workspace} does not exist`);
    workspace = undefined;
  }
  if (workspace) workspace = path.resolve(workspace);
  if (!fs.existsSync(extensionTestsPath) && !fs.existsSync(extensionTestsPath + '.js')) {
    throw new Error(`test suite ${extensionTestsPath} not found (compile the tests first, e.g. npx tsc -p .)`);
  }
  const runner = opts.runner ?? (process.env.WPBENCH_TEST_RUNNER === 'electron' ? 'electron' : 'code-server');

  if (runner === 'electron') {
    const { runTests } = await import('@vscode/test-electron');
    const launchArgs = ['--disable-extensions'];
    if (opts.disableWorkspaceTrust !== false) launchArgs.push('--disable-workspace-trust');
    if (workspace) launchArgs.unshift(workspace);
    try {
      await runTests({
        extensionDevelopmentPath,
        extensionTestsPath,
        launchArgs,
        extensionTestsEnv: opts.env,
      });
      return 0;
    } catch (e) {
      console.error(e?.message || e);
      return 1;
    }
  }

  const { runTests } = await import('./runInCodeServer.mjs');
  return runTests({
    extensionDevelopmentPath,
    extensionTestsPath,
    workspace,
    env: opts.env,
    timeoutMs: opts.timeoutMs,
    settings: opts.settings,
    disableWorkspaceTrust: opts.disableWorkspaceTrust ?? true,
    userDataDir: opts.userDataDir,
    codeServerDir: opts.codeServerDir,
    verbose: opts.verbose || undefined,
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] || '').href) {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      extension: { type: 'string' },
      tests: { type: 'string' },
      workspace: { type: 'string' },
      timeout: { type: 'string' },
      trust: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
    },
  });
  runIntegration({
    extensionDevelopmentPath: values.extension,
    extensionTestsPath: values.tests,
    workspace: values.workspace,
    timeoutMs: values.timeout ? Number(values.timeout) : undefined,
    disableWorkspaceTrust: !values.trust,
    verbose: values.verbose,
  }).then(
    (code) => process.exit(code),
    (err) => {
      console.error(err?.stack || err);
      process.exit(1);
    },
  );
}
