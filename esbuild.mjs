// Bundles the extension, the webview chart, the CLI and the emulator. Flags: --watch, --production (minified).
import * as fs from 'node:fs';
import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
  // jsonc-parser's default entry is a UMD build esbuild cannot follow.
  mainFields: ['module', 'main'],
  legalComments: 'none',
};

const builds = [
  {
    ...common,
    entryPoints: { extension: 'src/extension.ts' },
    outdir: 'dist',
    external: ['vscode'],
  },
  {
    // undici costs ~50 ms to load: it lives in its own bundle, required on the first request only.
    ...common,
    entryPoints: { http: 'src/core/api/undiciTransport.ts' },
    outdir: 'dist',
  },
  {
    // The executable: a plain `scan` with the scanner alone; anything else loads dist/cli-full.js (see src/wp-bench.ts).
    ...common,
    entryPoints: { cli: 'src/wp-bench.ts' },
    outdir: 'dist',
    external: ['./cli-full.js'],
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    ...common,
    entryPoints: { 'cli-full': 'src/cli/index.ts' },
    outdir: 'dist',
  },
  {
    ...common,
    entryPoints: { emulator: 'src/emulator/main.ts' },
    outdir: 'dist',
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    // The site report's and the comparison's chart (with Chart.js), and the flame graph, for the webviews (a browser, no Node).
    ...common,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    entryPoints: { 'webview/chart': 'src/webview/chart.ts', 'webview/flame': 'src/webview/flame.ts' },
    outdir: 'dist',
  },
];

if (watch) {
  for (const b of builds) {
    const ctx = await esbuild.context(b);
    await ctx.watch();
  }
  console.log('watching…');
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  // The CLI and the emulator are run directly (shebang banner).
  for (const f of ['dist/cli.js', 'dist/emulator.js']) fs.chmodSync(f, 0o755);
}
