// Integration: the regression check with the browser, `wp-bench measure PATH --baseline-ref REF --browser`, on a
// plugin in a temporary git repository (native php, MariaDB, Chromium; nothing is skipped). An identical copy at REF
// is not flagged (exit 0, every browser row ok); a working tree that adds a heavy render-blocking head script (96 KB,
// 300 ms of work before the first paint) to REF's plugin is (exit 1: bytes, requests, render-blocking requests and
// FCP named; FCP by its own render-blocking scripts' main-thread time where the machine is too busy for the page).
// A timed figure the first loads leave undecided gets one confirmation pass: as many loads a side again, every
// figure judged on all.
// No time is asserted: which rows fail, not by how much.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as crypto from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { git, measureCli } from './helpers';
import { measureCompare } from '../../src/core/measure/run/engine';
import type { BrowserLoad } from '../../src/core/measure/browser/types';

const busy = (ms: number) => `(function(){var t=performance.now();while(performance.now()-t<${ms}){}})();`;
/** A footer script doing a little work: the plugin has a front end at both refs. */
const LIGHT = `<?php
/**
 * Plugin Name: Browser Regression Sample
 * Version: 1.0.0
 */
add_action('wp_enqueue_scripts', function () { wp_enqueue_script('sample-foot', plugins_url('foot.js', __FILE__), array(), '1.0', true); });
`;
/** The same, and a head script (render-blocking) of 96 KB doing 300 ms of work before the first paint. */
const HEAVY = LIGHT.replace('1.0.0', '1.1.0') + `add_action('wp_enqueue_scripts', function () { wp_enqueue_script('sample-head', plugins_url('head.js', __FILE__), array(), '1.0', false); });\n`;

/** Incompressible padding (a bundle's minified code): random letters in a comment. */
function padding(kb: number): string {
  let out = '';
  let block = crypto.createHash('sha256').update('sample').digest();
  while (out.length < kb * 1024) {
    block = crypto.createHash('sha256').update(block).digest();
    out += block.toString('base64').replace(/[^A-Za-z0-9]/g, '');
  }
  return `/*${out.slice(0, kb * 1024)}*/`;
}

interface Row {
  figure: string;
  regression: boolean;
  overCeiling: boolean;
  inconclusive?: boolean;
}

describe('wp-bench measure --baseline-ref --browser (native php, MariaDB, Chromium)', function () {
  let repo: string;
  let cache: string;
  let env: NodeJS.ProcessEnv;
  const plugin = () => path.join(repo, 'sample');
  const args = ['--baseline-ref', 'HEAD', '--json', '--runtime', 'php', '--rounds', '5', '--warmup', '1', '--browser', '--browser-rounds', '5'];

  before(async () => {
    repo = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-regression-browser-'));
    cache = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-regression-browser-cache-'));
    env = { ...process.env, WPBENCH_CACHE_DIR: cache };
    await fs.mkdir(plugin());
    await fs.writeFile(path.join(plugin(), 'sample.php'), LIGHT);
    await fs.writeFile(path.join(plugin(), 'foot.js'), busy(20));
    await fs.writeFile(path.join(plugin(), 'head.js'), busy(300) + padding(96));
    git(repo, 'init', '-q');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'light');
  });
  after(async () => {
    await fs.rm(repo, { recursive: true, force: true });
    await fs.rm(cache, { recursive: true, force: true });
  });

  it('an identical copy at REF is not flagged: exit 0, every browser row ok', async () => {
    const r = await measureCli([plugin(), ...args], env);
    assert.equal(r.code, 0, `${r.err.slice(-1500)}\n${r.out.slice(0, 3000)}`);
    const j = JSON.parse(r.out);
    assert.equal(j.passed, true);
    const rows: Row[] = j.browser.rows;
    assert.deepEqual(rows.map((x) => x.figure), ['bytes_kb', 'requests', 'render_blocking', 'fcp_ms', 'lcp_ms', 'tbt_ms', 'cls']);
    assert.deepEqual(rows.filter((x) => x.regression || x.overCeiling || x.inconclusive), []);
    // Both copies' own script was loaded: the same bytes and requests at both refs.
    assert.equal(j.current.contexts.homepage.browser.requests, 1);
    assert.equal(j.baseline.contexts.homepage.browser.requests, 1);
    assert.ok(Math.abs(j.current.contexts.homepage.browser.bytes_kb - j.baseline.contexts.homepage.browser.bytes_kb) < 1, JSON.stringify([j.current.contexts.homepage.browser, j.baseline.contexts.homepage.browser]));
  });

  it('a heavy render-blocking head script added at the working tree is flagged: exit 1, bytes, requests and render-blocking named, each copy’s own files; the Markdown shows the rows', async () => {
    await fs.writeFile(path.join(plugin(), 'sample.php'), HEAVY);
    try {
      const r = await measureCli([plugin(), ...args], env);
      assert.equal(r.code, 1, `${r.err.slice(-1500)}\n${r.out.slice(0, 3000)}`);
      const j = JSON.parse(r.out);
      const flagged = j.exceeded.filter((e: { figure?: string }) => e.figure).map((e: { figure: string }) => e.figure);
      for (const f of ['bytes_kb', 'requests', 'render_blocking']) assert.ok(flagged.includes(f), `${f} flagged: ${flagged.join(', ')}`);
      // FCP: a regression, by the paired loads' bound or, where the machine is too busy for the page to bound it, by
      // its own render-blocking scripts' main-thread time (300 ms of work more in every load).
      // Five loads a side, or ten where the first five left a timed figure undecided (a confirmation pass, said).
      const fcp = j.browser.rows.find((x: Row) => x.figure === 'fcp_ms') as Row & { paired?: { n: number } };
      const confirmed = j.current.local.browser.confirmation_rounds === 5;
      assert.equal(fcp.paired?.n, confirmed ? 10 : 5, JSON.stringify([fcp, j.current.local.browser.rounds]));
      assert.equal(/a confirmation pass of 5 more loads a side/.test(r.err), confirmed, r.err.slice(-1500));
      assert.equal(fcp.regression, true, JSON.stringify(fcp));
      assert.ok(flagged.includes('fcp_ms'), flagged.join(', '));
      assert.equal(j.current.contexts.homepage.browser.render_blocking - j.baseline.contexts.homepage.browser.render_blocking, 1);
      // Each copy's own files named as the component names them (its folder in the throwaway site is suffixed).
      const names = (rec: { contexts: { homepage: { browser: { assets: { url: string }[] } } } }) => rec.contexts.homepage.browser.assets.map((a) => a.url).sort();
      assert.deepEqual(names(j.current), ['/wp-content/plugins/sample/foot.js', '/wp-content/plugins/sample/head.js']);
      assert.deepEqual(names(j.baseline), ['/wp-content/plugins/sample/foot.js']);
      const md = await measureCli([plugin(), ...args.filter((a) => a !== '--json'), '--format', 'markdown'], env);
      assert.equal(md.code, 1, md.err.slice(-1500));
      assert.match(md.out, /❌ performance regression/);
      assert.match(md.out, /^\| render-blocking requests \| 0 \| 1 \| \\\+1 \| \\\+0 \| ❌ REGRESSION \|$/m);
      assert.match(md.out, /^\| FCP \| .* \| (❌|⚠️|✅) [^|]+ \|$/m);
    } finally {
      git(repo, 'checkout', '-q', '--', '.');
    }
  });
  it('a timed figure the first loads leave undecided gets one confirmation pass: as many loads a side again, judged on all of them', async () => {
    const ref = path.join(repo, 'ref-copy', 'sample');
    await fs.cp(plugin(), ref, { recursive: true });
    const asked: number[] = [];
    const lines: string[] = [];
    let loads: BrowserLoad[] = [];
    const out = await measureCompare(
      {
        path: plugin(),
        runtime: 'php',
        cwd: path.resolve(__dirname, '..', '..'),
        rounds: 1,
        warmup: 0,
        env,
        noCache: true,
        browser: true,
        browserRounds: 5,
        progress: (l) => lines.push(l),
        onBrowserLoads: (l) => (loads = l),
        // As if FCP were undecided after the first five loads: asked once, with the five paired loads.
        confirmBrowser: (_c, _r, paired) => (asked.push(paired.fcp_ms?.length ?? 0), ['FCP']),
      },
      ref,
    );
    assert.deepEqual(asked, [5], 'asked once, after the first loads');
    assert.ok(lines.includes('browser: FCP too close to the threshold to decide: a confirmation pass of 5 more loads a side'), lines.join('\n'));
    const info = out.current.local.browser as { rounds: number; confirmation_rounds?: number };
    assert.deepEqual([info.rounds, info.confirmation_rounds], [10, 5]);
    assert.equal(out.pairedBrowser?.fcp_ms?.length, 10, 'judged on all ten paired loads');
    for (const side of ['baseline', 'measured', 'ref']) assert.deepEqual(loads.filter((l) => l.side === side && l.round >= 0).map((l) => l.round), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], side);
  });
});
