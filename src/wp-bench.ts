// The `wp-bench` executable (dist/cli.js). A plain `wp-bench scan [dir] [--json]` runs here, with the scanner alone;
// every other command line loads the whole CLI (dist/cli-full.js, src/cli/index.ts). A scan is what CI jobs and editor
// tasks run most: it no longer compiles the reports, the API client and the measuring engine first (about 6 ms of a
// 0.25 s scan of 2,000 plugins; npm run bench, figure 1b). Both answer a plain scan with the same scanCommand().
import { isPlainScan, runAsProcess, runPlainScan } from './cli/scan';

const argv = process.argv.slice(2);
if (isPlainScan(argv)) {
  runAsProcess(runPlainScan, argv);
} else {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./cli-full.js') as typeof import('./cli/index')).main(argv);
}
