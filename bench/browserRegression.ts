// Figure 17 of `npm run bench`: the regression check with the browser (`measure --baseline-ref HEAD --browser`) on a
// plugin with a front end (a render-blocking head script doing 100 ms of work before the first paint, a footer script
// doing 200 ms after it): an identical copy, N runs quiet and N with both cores busy (how often it is flagged: never,
// the target; a browser row flagged and the exit codes are said apart), the same plugin with a heavy head script
// added at the working tree (96 KB, 300 ms before the first paint; caught every time on its bytes, render-blocking
// request and FCP, both cores busy), and what
// --browser adds to a comparison's time (quiet). Full mode only; `WPB_BROWSER_REG_RUNS` sets N (default 20),
// `WPB_BROWSER_REG_ROUNDS` the server's measured rounds (default: measure's).
import { promises as fs } from 'node:fs';
import * as crypto from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { check, measureCli, type Status } from './common';
import { git, startLoad, stopLoad } from '../test/measure/loadSample';

type RowFn = (id: string, figure: string, value: string, target: string, status: Status) => void;

const busy = (ms: number) => `(function(){var t=performance.now();while(performance.now()-t<${ms}){}})();`;
const MAIN = `<?php
/**
 * Plugin Name: Browser regression bench
 * Version: 1.0
 */
add_action('wp_enqueue_scripts', function () {
  wp_enqueue_script('bench-head', plugins_url('head.js', __FILE__), array(), '1.0', false);
  wp_enqueue_script('bench-foot', plugins_url('foot.js', __FILE__), array(), '1.0', true);
});
`;
const HEAVY = MAIN + `add_action('wp_enqueue_scripts', function () { wp_enqueue_script('bench-heavy', plugins_url('heavy.js', __FILE__), array(), '1.0', false); });\n`;

/** Incompressible padding: a comment of pseudo-random letters (a minified bundle's bytes). */
function padding(kb: number): string {
  let out = '';
  let block = crypto.createHash('sha256').update('bench').digest();
  while (out.length < kb * 1024) {
    block = crypto.createHash('sha256').update(block).digest();
    out += block.toString('base64').replace(/[^A-Za-z0-9]/g, '');
  }
  return `/*${out.slice(0, kb * 1024)}*/`;
}

interface Outcome {
  code: number;
  s: number;
  /** browser rows regressed or inconclusive, by figure */
  browser: string[];
  /** every exceeded budget, "homepage:fcp_ms" or "admin:ttfbMs" */
  exceeded: string[];
  /** loads a side of the browser's confirmation pass (a timed figure the first loads left undecided) */
  confirmed?: number;
}

export async function figureBrowserRegression(row: RowFn, details: Record<string, unknown>, quick: boolean, log: (s: string) => void): Promise<void> {
  const id = '17';
  const runs = Number(process.env.WPB_BROWSER_REG_RUNS ?? 20);
  if (quick) {
    row(id, 'browser regression check: identical copy never flagged', `not measured (full mode only: about ${Math.round((runs * 2 * 75) / 60)} minutes with ${runs} runs a case)`, '-', 'not measured');
    return;
  }
  const rounds = process.env.WPB_BROWSER_REG_ROUNDS ? ['--rounds', process.env.WPB_BROWSER_REG_ROUNDS, '--warmup', '1'] : [];
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-bench-browser-regression-'));
  const measure = measureCli({ ...process.env, WPBENCH_CACHE_DIR: path.join(dir, 'cache') });
  const repo = path.join(dir, 'repo');
  const plugin = path.join(repo, 'bench-front');
  const out: Record<string, Outcome[] | Record<string, number>> = {};
  details.browserRegression = out;
  try {
    await fs.mkdir(plugin, { recursive: true });
    await fs.writeFile(path.join(plugin, 'bench-front.php'), MAIN);
    await fs.writeFile(path.join(plugin, 'head.js'), busy(100) + padding(16));
    await fs.writeFile(path.join(plugin, 'foot.js'), busy(200) + padding(48));
    await fs.writeFile(path.join(plugin, 'heavy.js'), busy(300) + padding(96));
    git(repo, 'init', '-q');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'base');
    const compare = async (name: string, browser = true): Promise<Outcome> => {
      const r = await measure([plugin, '--baseline-ref', 'HEAD', '--json', ...rounds, ...(browser ? ['--browser'] : [])], repo);
      let o: Outcome = { code: r.code, s: r.s, browser: [], exceeded: [] };
      try {
        const j = JSON.parse(r.out) as { exceeded?: Array<{ context: string; metric?: string; figure?: string }>; browser?: { rows: Array<{ figure: string; regression: boolean; inconclusive?: boolean }>; confirmation_rounds?: number; unavailable?: string }; error?: { message: string } };
        if (j.error) throw new Error(j.error.message);
        if (browser && (!j.browser || j.browser.unavailable)) throw new Error(`no browser figures: ${j.browser?.unavailable ?? r.err.slice(-300)}`);
        o = { ...o, browser: (j.browser?.rows ?? []).filter((x) => x.regression || x.inconclusive).map((x) => `${x.figure}${x.regression ? '' : '?'}`), exceeded: (j.exceeded ?? []).map((e) => `${e.context}:${e.figure ?? e.metric ?? ''}`), ...(j.browser?.confirmation_rounds ? { confirmed: j.browser.confirmation_rounds } : {}) };
      } catch (e) {
        throw new Error(`${name}: exit ${r.code}: ${(e as Error).message.slice(0, 300)} ${r.err.slice(-300)}`);
      }
      const list = (out[name] ??= []) as Outcome[];
      list.push(o);
      log(`browser regression: ${name} #${list.length}: exit ${o.code} in ${o.s.toFixed(1)} s${o.exceeded.length ? ` (exceeded ${o.exceeded.join(', ')})` : ''}${o.browser.length ? ` (browser rows ${o.browser.join(', ')})` : ''}${o.confirmed ? ` (after a confirmation pass of ${o.confirmed} loads a side)` : ''}`);
      return o;
    };
    const series = async (name: string, n: number, loaded: boolean): Promise<Outcome[]> => {
      const got: Outcome[] = [];
      for (let i = 0; i < n; i++) {
        const load = loaded ? startLoad(900) : [];
        try {
          got.push(await compare(name));
        } finally {
          await stopLoad(load);
        }
      }
      return got;
    };
    const said = (o: Outcome[]) => `${o.filter((x) => x.code === 0).length}/${o.length} exit 0, a browser row flagged in ${o.filter((x) => x.browser.length).length} (exits ${o.map((x) => x.code).join(' ')}${o.some((x) => x.browser.length) ? `; rows ${o.flatMap((x) => x.browser).join(', ')}` : ''}; a confirmation pass in ${o.filter((x) => x.confirmed).length})`;
    for (const [label, loaded] of [['quiet', false], ['both cores busy', true]] as const) {
      const o = await series(`identical copy, ${label}`, runs, loaded);
      row(id, `browser regression check: identical copy, --baseline-ref HEAD --browser, ${label}, ${runs} runs`, said(o), `${runs} of ${runs} exit 0, no browser row flagged`, check(o.every((x) => x.code === 0 && !x.browser.length)));
    }
    // What --browser adds to a comparison (quiet): the median of the quiet runs against one run without it.
    const quiet = (out['identical copy, quiet'] as Outcome[]).map((x) => x.s).sort((a, b) => a - b);
    const withS = quiet[Math.floor(quiet.length / 2)];
    const without = await compare('identical copy, without --browser', false);
    out.seconds = { with: withS, without: without.s };
    row(id, 'browser regression check: time --browser adds to a comparison (quiet)', `${withS.toFixed(1)} s with, ${without.s.toFixed(1)} s without (+${(withS - without.s).toFixed(1)} s)`, '≤ +45 s (three sides loaded)', check(withS - without.s <= 45));
    // A heavy head script added at the working tree: caught on the browser rows every time, both cores busy.
    await fs.writeFile(path.join(plugin, 'bench-front.php'), HEAVY);
    const n = Math.min(3, runs);
    const heavy = await series('heavy head script added, both cores busy', n, true);
    const caught = heavy.filter((x) => x.code === 1 && ['bytes_kb', 'render_blocking'].every((f) => x.exceeded.includes(`homepage:${f}`))).length;
    const fcp = heavy.filter((x) => x.exceeded.includes('homepage:fcp_ms')).length;
    row(id, `browser regression check: +96 KB render-blocking head script, 300 ms before the first paint, both cores busy, ${n} runs`, `${caught}/${n} exit 1 naming bytes and render-blocking; FCP a regression in ${fcp}/${n} (rows ${heavy.map((x) => x.browser.join('+') || '-').join(', ')}; exits ${heavy.map((x) => x.code).join(' ')}; a confirmation pass in ${heavy.filter((x) => x.confirmed).length})`, `${n} of ${n} exit 1, FCP named in ${n} of ${n}`, check(caught === n && fcp === n));
  } catch (e) {
    row(id, 'browser regression check', `not measured (${(e as Error).message.split('\n')[0].slice(0, 200)})`, '-', 'not measured');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
