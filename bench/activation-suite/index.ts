// Runs inside the real VS Code extension host (bundled to CommonJS by bench/bench.ts, loaded by the
// integration harness as extensionTestsPath). Prints what activate() measured and whether undici (or its
// bundle, dist/http.js) is loaded at that moment.
import * as path from 'node:path';
import * as vscode from 'vscode';

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension('wpbench.wp-bench');
  if (!ext) throw new Error('extension wpbench.wp-bench not found');
  await ext.activate();
  // activate() exports nothing; the test-only command (WPBENCH_TEST_HOOKS=1) gives what it measured.
  const api = await vscode.commands.executeCommand<{ activationMs: number }>('wpBench.test.api');
  const loaded = Object.keys(require.cache);
  // VS Code itself ships (and may load) its own undici under appRoot: only copies outside it are ours.
  const appRoot = vscode.env.appRoot;
  const isUndici = (k: string) => k.toLowerCase().includes(`${path.sep}undici${path.sep}`) || /undici/i.test(path.basename(k));
  const undici = loaded.filter((k) => isUndici(k) && !k.startsWith(appRoot + path.sep));
  const vscodeOwn = loaded.filter((k) => isUndici(k) && k.startsWith(appRoot + path.sep));
  const httpBundle = loaded.filter((k) => k === path.join(ext.extensionPath, 'dist', 'http.js'));
  console.log(`WPBENCH_ACTIVATION_MS=${api.activationMs}`);
  console.log(`WPBENCH_UNDICI_LOADED=${undici.length > 0}`);
  console.log(`WPBENCH_HTTP_BUNDLE_LOADED=${httpBundle.length > 0}`);
  console.log(`WPBENCH_VSCODE_OWN_UNDICI_MODULES=${vscodeOwn.length}`);
  if (undici.length) console.log(`WPBENCH_UNDICI_PATHS=${JSON.stringify(undici.slice(0, 5))}`);
  console.log(`WPBENCH_VSCODE_VERSION=${vscode.version}`);
}
