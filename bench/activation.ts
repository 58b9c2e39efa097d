// Figure 4 of `npm run bench`: the size of the production bundle, and activate() in VS Code (code-server) with
// whether WP Bench's undici is loaded by then.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { median, round, withTimeout } from './lib/util';
import { check, CONFIG, details, log, ms, QUICK, ROOT, row } from './common';

const CODE_SERVER_MARKER = path.join(ROOT, '.vscode-test', 'code-server', '.installed-4.100.3');

// ---- 4. activation -----------------------------------------------------------------------------

const ESBUILD_COMMON: esbuild.BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: false,
  minify: true,
  logLevel: 'warning',
  mainFields: ['module', 'main'],
  legalComments: 'none',
};

export async function figureActivation(tmp: string): Promise<void> {
  const id = '4';
  const devSize = fs.statSync(path.join(ROOT, 'dist', 'extension.js')).size;
  // The production bundles (as `node esbuild.mjs --production`), in a temp extension folder: dist/ is not touched.
  const prodExt = path.join(tmp, 'ext-production');
  await esbuild.build({ ...ESBUILD_COMMON, entryPoints: { extension: path.join(ROOT, 'src/extension.ts') }, outdir: path.join(prodExt, 'dist'), external: ['vscode'] });
  await esbuild.build({ ...ESBUILD_COMMON, entryPoints: { http: path.join(ROOT, 'src/core/api/undiciTransport.ts') }, outdir: path.join(prodExt, 'dist') });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(prodExt, 'package.json'));
  fs.cpSync(path.join(ROOT, 'media'), path.join(prodExt, 'media'), { recursive: true });
  const prodSize = fs.statSync(path.join(prodExt, 'dist', 'extension.js')).size;
  const httpSize = fs.statSync(path.join(prodExt, 'dist', 'http.js')).size;
  details.bundle = { devExtensionBytes: devSize, productionExtensionBytes: prodSize, productionHttpBytes: httpSize };
  row(id, 'dist/extension.js size (dev build / production, minified)', `${round(devSize / 1024, 1)} KiB / ${round(prodSize / 1024, 1)} KiB (undici bundle http.js: ${round(httpSize / 1024, 1)} KiB, loaded on first request)`, 'report', 'info');

  if (!fs.existsSync(CODE_SERVER_MARKER)) {
    details.activation = 'not measured (code-server missing)';
    row(id, 'activate() in VS Code', 'not measured (code-server missing)', '≤ 15 ms', 'not measured');
    row(id, 'undici loaded during activation', 'not measured (code-server missing)', 'false', 'not measured');
    return;
  }
  const suiteDir = path.join(tmp, 'activation-suite');
  await esbuild.build({ entryPoints: [path.join(__dirname, 'activation-suite', 'index.ts')], outfile: path.join(suiteDir, 'index.js'), bundle: true, platform: 'node', target: 'node20', format: 'cjs', external: ['vscode'], logLevel: 'warning' });
  const harness = (await import(pathToFileURL(path.join(ROOT, 'test/integration/harness/runInCodeServer.mjs')).href)) as {
    runTests: (o: Record<string, unknown>) => Promise<number>;
  };
  const integration = (await import(pathToFileURL(path.join(ROOT, 'test/integration/run.mjs')).href)) as { copyFixture: (name?: string) => string };

  const runOnce = async (extensionDevelopmentPath: string) => {
    const workspace = integration.copyFixture();
    const lines: string[] = [];
    try {
      const code = await withTimeout(
        harness.runTests({ extensionDevelopmentPath, extensionTestsPath: path.join(suiteDir, 'index.js'), workspace, env: { WPBENCH_TEST_HOOKS: '1' }, timeoutMs: 180_000, log: (l: string) => lines.push(l) }),
        200_000,
        'code-server run',
      );
      const text = lines.join('\n');
      const value = (k: string) => new RegExp(`${k}=(.*)`).exec(text)?.[1]?.trim();
      const activationMs = Number(value('WPBENCH_ACTIVATION_MS'));
      if (code !== 0 || !Number.isFinite(activationMs)) throw new Error(`activation suite failed (exit ${code}):\n${text.slice(-2000)}`);
      return { activationMs, undici: value('WPBENCH_UNDICI_LOADED') === 'true', httpBundle: value('WPBENCH_HTTP_BUNDLE_LOADED') === 'true', undiciPaths: value('WPBENCH_UNDICI_PATHS'), vscodeOwnUndiciModules: Number(value('WPBENCH_VSCODE_OWN_UNDICI_MODULES')), vscode: value('WPBENCH_VSCODE_VERSION') };
    } finally {
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  };
  const prodRuns = [];
  for (let i = 0; i < CONFIG.activationRuns; i++) {
    log(`activation: code-server run ${i + 1}/${CONFIG.activationRuns} (production build)`);
    prodRuns.push(await runOnce(prodExt));
  }
  const devRun = QUICK ? null : (log('activation: code-server run (dev build, dist/)'), await runOnce(ROOT));
  const act = median(prodRuns.map((r) => r.activationMs));
  const loaded = [...prodRuns, ...(devRun ? [devRun] : [])].some((r) => r.undici || r.httpBundle);
  details.activation = { production: prodRuns, dev: devRun };
  row(
    id,
    `activate() in VS Code ${prodRuns[0].vscode} (code-server), production build`,
    `${ms(act)} (median of ${prodRuns.length}: ${prodRuns.map((r) => round(r.activationMs, 1)).join(', ')})${devRun ? `; dev build ${ms(devRun.activationMs)}` : ''}`,
    '≤ 15 ms',
    check(act <= 15),
  );
  const vsOwn = Math.max(...prodRuns.map((r) => r.vscodeOwnUndiciModules || 0));
  row(id, "WP Bench's undici (dist/http.js) loaded when activate() returns", `${loaded}${vsOwn ? ` (VS Code's own undici: ${vsOwn} modules, not counted)` : ''}`, 'false', check(!loaded));
}
