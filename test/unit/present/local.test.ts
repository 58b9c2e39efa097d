// Local measurements in the editor, in plain Node: the store (stale when the files change, persisted, hostile file
// dropped), what each surface says about a local record, the site total over API and local numbers, and the child
// process that runs `wp-bench measure --json` (progress, record, missing runtime, cancel kills it).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { localAsBenchmark, localContextLine, localDiagnosticMessage, localGradeText, localHoverSection, localInlineText, localTreeText, localWords, measurableSource, measureLink, mixedSiteTotal, siteSourcesLine } from '../../../src/core/present/local';
import type { LookupOutcome } from '../../../src/core/lookup/lookupService';
import { MeasureChildError, instructionsSkipped, measureChildEnv, measureLocallyArgs, progressStep, runMeasureChild } from '../../../src/core/measure/child';
import type { LocalRecord } from '../../../src/core/measure/record/method';
import { LocalResults, hashOfPath } from '../../../src/core/session/localResults';
import type { LocalResult } from '../../../src/core/measure/record/method';
import { chartData } from '../../../src/core/report/glance';
import { toMarkdown } from '../../../src/core/report/formats';
import { WorkspaceSession } from '../../../src/core/session/session';
import { componentDiagnostic, componentHover } from '../../../src/core/session/surfaces';
import { fakeApi, fakeHost } from '../helpers/fakeSession';
import { sampleBody } from '../helpers/samples';

function localRecord(over: Partial<LocalRecord> = {}, grade = 'B'): LocalRecord {
  return {
    slug: 'layerslider',
    type: 'plugin',
    name: 'LayerSlider WP',
    benchmarked: true,
    benchmarked_at: '2026-11-25 11:11:40',
    speed_score: { grade, numeric: 80, estimated: true },
    contexts: {
      activation: { ttfb_delta_ms: 1.5, memory_delta_kb: 9000, queries_delta: 6 },
      homepage: { ttfb_delta_ms: 12.4, memory_delta_kb: 10240, queries_delta: 7 },
      admin: null,
    },
    metadata: { active_installs: null, rating: null, version: '7.11.0' },
    links: { profile: null },
    source: 'local',
    local: {
      runtime: 'php',
      wordpress_version: '6.1.9',
      php_version: '8.2.36',
      rounds: 9,
      warmup_rounds: 2,
      baseline_theme: 'wpbench-baseline',
      spread: { activation: null, homepage: null, admin: null },
      baseline: { activation: null, homepage: null, admin: null },
      null_reasons: { admin: { reason: 'redirected away from /wp-admin/' } },
      activation_hook: null,
      grade_scale: 'x',
      units: 'y',
      duration_s: 14,
    },
    ...over,
  };
}

function plugin(dir: string, name = 'layerslider', body = ''): string {
  const folder = path.join(dir, name);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, `${name}.php`), `<?php\n/*\nPlugin Name: LayerSlider WP\nVersion: 7.11.0\n*/\n${body}`);
  return folder;
}

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-local-'));

describe('local results store', () => {
  it('keeps a record per kind:slug, marks it stale when its files change and persists it', async () => {
    const dir = tmp();
    const folder = plugin(dir);
    const file = path.join(dir, 'store', 'local-results.json');
    const store = new LocalResults(file);
    let fired = 0;
    store.onDidChange(() => fired++);
    const hash = (await hashOfPath(folder))!;
    await store.set('plugin', 'layerslider', folder, hash, localRecord());
    assert.equal(store.get('plugin', 'layerslider')?.stale, false);
    assert.deepEqual([...store.records().keys()], ['plugin:layerslider']);
    assert.equal(fired, 1);
    // A file outside the component does not touch it; an edit inside makes it stale (and back when undone).
    fs.writeFileSync(path.join(dir, 'other.txt'), 'x');
    assert.equal(await store.recheck(path.join(dir, 'other.txt')), false);
    fs.appendFileSync(path.join(folder, 'layerslider.php'), '// changed\n');
    assert.equal(await store.recheck(path.join(folder, 'layerslider.php')), true);
    assert.equal(store.get('plugin', 'layerslider')?.stale, true);
    // A new session reads it back and sees the same staleness.
    const again = new LocalResults(file);
    await again.load();
    assert.equal(again.get('plugin', 'layerslider')?.record.name, 'LayerSlider WP');
    assert.equal(again.get('plugin', 'layerslider')?.stale, true);
    // Files changed during the run: stale at once.
    await store.set('plugin', 'layerslider', folder, 'hash-before-the-edit', localRecord());
    assert.equal(store.get('plugin', 'layerslider')?.stale, true);
  });

  it('drops stored entries without the engine shape (a relative source, a bad context, not JSON)', async () => {
    const dir = tmp();
    const file = path.join(dir, 'local-results.json');
    const good = { kind: 'plugin', slug: 'a', source: path.join(dir, 'a'), hash: 'h', record: localRecord({ slug: 'a' }) };
    fs.writeFileSync(file, JSON.stringify({ results: [good, { ...good, slug: 'b', source: 'relative/b' }, { ...good, slug: 'c', record: { ...localRecord(), contexts: { activation: { ttfb_delta_ms: 'x' } } } }, { ...good, slug: 'd', kind: 'module' }] }));
    const store = new LocalResults(file, async () => 'h');
    await store.load();
    assert.deepEqual(store.all().map((r) => r.slug), ['a']);
    fs.writeFileSync(path.join(dir, 'bad.json'), '{not json');
    const bad = new LocalResults(path.join(dir, 'bad.json'));
    await bad.load();
    assert.deepEqual(bad.all(), []);
  });
});

describe('local records on each surface', () => {
  const result = (over: Partial<LocalResult> = {}): LocalResult => ({ kind: 'plugin', slug: 'layerslider', source: '/w/p', hash: 'h', record: localRecord(), stale: false, ...over });

  it('says in words where and how it was measured, with the estimated grade marked', () => {
    assert.equal(localWords(localRecord()), 'measured locally, PHP 8.2, WordPress 6.1.9, 2026-11-25');
    assert.equal(localGradeText(localRecord()), '≈B local');
    assert.equal(localGradeText(localRecord({ speed_score: null })), 'local, no grade');
    const b = localAsBenchmark(localRecord());
    assert.equal(b.grade, 'B');
    assert.equal(b.contexts.homepage?.memoryDeltaKb, 10240);
    assert.equal(b.contexts.admin, null);
    assert.equal(b.profileUrl, null);
  });

  it('tree text: a short description, the date and versions in the spoken label, staleness', () => {
    const t = localTreeText(result());
    assert.equal(t.description, '≈B local');
    assert.equal(t.spoken, 'estimated grade B, measured locally, PHP 8.2, WordPress 6.1.9, 2026-11-25');
    const stale = localTreeText(result({ stale: true }));
    assert.equal(stale.description, '≈B local (stale)');
    assert.match(stale.spoken, /stale: its files changed since$/);
  });

  it('hover: local table alone, or API and local side by side; stale offers to measure again', () => {
    const alone = localHoverSection(result(), undefined, { link: true }).join('\n');
    assert.match(alone, /\*\*Measured locally\*\* · ≈B local/);
    assert.match(alone, /\| Homepage \| 12\.4 ms \| 10 MB \| 7 \|/);
    assert.match(alone, /Not measured: Admin: redirected away/);
    assert.doesNotMatch(alone, /command:/);
    const api = localAsBenchmark(localRecord({ contexts: { activation: { ttfb_delta_ms: 3, memory_delta_kb: 1024, queries_delta: 1 }, homepage: null, admin: null } }));
    const both = localHoverSection(result({ stale: true }), api, { link: true }).join('\n');
    assert.match(both, /\| Context \| API: TTFB · memory · queries \| Local: TTFB · memory · queries \|/);
    assert.match(both, /\| Activation \| 3(\.0)? ms · 1(\.0)? MB · 1 \| 1\.5 ms · 8\.8 MB · 6 \|/);
    assert.match(both, /⚠ Stale: .*\[Measure again\]\(command:wpBench\.measureLocally\?/);
    assert.doesNotMatch(localHoverSection(result({ stale: true }), api, { link: false }).join('\n'), /command:/);
  });

  /** result() with --instructions counts: activation inside the spread, homepage +1.42 M of 290 M, admin not measured. */
  const counted = (varying?: ('activation' | 'homepage' | 'admin')[]) => {
    const r = result();
    r.record.contexts.homepage = { ...r.record.contexts.homepage!, instructions_delta: 1_420_000 };
    r.record.contexts.activation = { ...r.record.contexts.activation!, instructions_delta: 12_000 };
    r.record.local.baseline = { activation: { ttfb_ms: 30, memory_kb: 4000, queries: 10, instructions: 250_000_000 }, homepage: { ttfb_ms: 40, memory_kb: 4000, queries: 10, instructions: 290_000_000 }, admin: null };
    r.record.local.spread = { activation: { ttfb_ms: 1, memory_kb: 0, queries: 0, instructions: 20_000 }, homepage: { ttfb_ms: 1, memory_kb: 0, queries: 0, instructions: 20_000 }, admin: null };
    r.record.local.instructions = { counter: 'callgrind', opcache: 'warm', clock: 'set', rounds: 3, ...(varying ? { varying } : {}) };
    return r;
  };

  it('hover: with --instructions counts, an Instructions column beside time (in the Local cell beside the API); none without', () => {
    assert.doesNotMatch(localHoverSection(result(), undefined, { link: false }).join('\n'), /instr/);
    const hover = localHoverSection(counted(), undefined, { link: false }).join('\n');
    assert.match(hover, /^\| Context \| TTFB \| Memory \| Queries \| Instructions \|$/m);
    assert.match(hover, /^\| Activation \| 1\.5 ms \| 8\.8 MB \| 6 \| ±12\.0 K instr \(within noise\) \|$/m);
    assert.match(hover, /^\| Homepage \| 12\.4 ms \| 10 MB \| 7 \| \\\+1\.42 M instr \(\+0\.5 %\) \|$/m);
    assert.match(hover, /^\| Admin \| not measured \| not measured \| not measured \| – \|$/m);
    assert.match(hover, /CPU instructions per request counted with callgrind: exact where time is noisy/);
    const api = localAsBenchmark(localRecord({ contexts: { activation: null, homepage: { ttfb_delta_ms: 3, memory_delta_kb: 1024, queries_delta: 1 }, admin: null } }));
    assert.match(localHoverSection(counted(), api, { link: false }).join('\n'), /^\| Homepage \| 3(\.0)? ms · 1(\.0)? MB · 1 \| 12\.4 ms · 10 MB · 7 · \\\+1\.42 M instr \(\+0\.5 %\) \|$/m);
  });

  it('hover: a context whose counted requests varied is said under the table, with its spread', () => {
    assert.doesNotMatch(localHoverSection(counted([]), undefined, { link: false }).join('\n'), /varied/);
    const hover = localHoverSection(counted(['homepage']), undefined, { link: false }).join('\n');
    assert.match(hover, /^⚠ CPU instructions varied between identical requests in Homepage \(by up to 20\.0 K instr, 0\.01 % of the request\): work that depends on the time/m);
  });

  it("tree: a local context's line has its instructions beside time; none without counts", () => {
    assert.equal(localContextLine(counted().record, 'homepage'), '+12.4 ms TTFB · +10 MB · +7 queries · +1.42 M instr (+0.5 %)');
    assert.equal(localContextLine(counted().record, 'admin'), 'not measured');
    assert.equal(localContextLine(result().record, 'homepage'), '+12.4 ms TTFB · +10 MB · +7 queries');
  });

  it('Measure Locally\'s arguments: --findings always, --profile when profiling, --instructions when the setting is on', () => {
    assert.deepEqual(measureLocallyArgs({ profile: false, instructions: true }), ['--findings', '--instructions']);
    assert.deepEqual(measureLocallyArgs({ profile: false, instructions: false }), ['--findings']);
    assert.deepEqual(measureLocallyArgs({ profile: true, instructions: true }), ['--profile', '--findings']);
  });

  it('why instructions were not counted, from the run\'s progress: Valgrind missing with the command to install it; else nothing', () => {
    const steps = ['building a throwaway site', 'warning: Valgrind was not found: install Valgrind (Debian/Ubuntu: sudo apt install valgrind libfaketime; Fedora: sudo dnf install valgrind libfaketime; macOS: not available); measured without instructions', 'round 1/9'];
    assert.equal(instructionsSkipped(steps), 'Valgrind was not found: install Valgrind (Debian/Ubuntu: sudo apt install valgrind libfaketime; Fedora: sudo dnf install valgrind libfaketime; macOS: not available)');
    assert.equal(instructionsSkipped(['warning: instructions are counted on the native php runtime only (not WordPress Playground); measured without instructions']), 'instructions are counted on the native php runtime only (not WordPress Playground)');
    assert.equal(instructionsSkipped(['round 1/9', 'counting instructions: 2 sides']), undefined);
  });

  it('the setting wpBench.measure.instructions: a boolean, on by default, documented in the README', () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
    const setting = pkg.contributes.configuration.properties['wpBench.measure.instructions'];
    assert.equal(setting?.type, 'boolean');
    assert.equal(setting.default, true);
    assert.match(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'README.md'), 'utf8'), /^\| `wpBench\.measure\.instructions` \| `true` \|/m);
  });

  it('the link carries only kind and slug, and escapes its label', () => {
    const link = measureLink('plugin', 'layerslider');
    const args = JSON.parse(decodeURIComponent(link.slice(link.indexOf('?') + 1, -1)));
    assert.deepEqual(args, [{ kind: 'plugin', slug: 'layerslider' }]);
    assert.match(measureLink('plugin', 'x', '[evil](command:x)'), /^\[\\\[evil\\\]/);
  });

  it('inline text: the local grade alone, or after the API text; stale marked', () => {
    assert.equal(localInlineText(null, result(), undefined, 'homepage'), '≈B local · +12.4 ms homepage');
    assert.equal(localInlineText(null, result({ stale: true }), undefined, 'admin'), '≈B local · not measured (admin) (stale)');
    const faster = result({ record: localRecord({ contexts: { activation: null, homepage: { ttfb_delta_ms: -1.6, memory_delta_kb: 0, queries_delta: 0 }, admin: null } }) });
    assert.equal(localInlineText(null, faster, undefined, 'homepage'), '≈B local · −1.6 ms homepage');
    assert.equal(localInlineText('A · +3.0 ms homepage', result(), localAsBenchmark(localRecord()), 'homepage'), 'A · +3.0 ms homepage · ≈B local');
  });

  it('diagnostic: only when the estimated grade is below the minimum, saying it was measured locally', () => {
    assert.equal(localDiagnosticMessage(result(), 'C'), null);
    const m = localDiagnosticMessage(result({ record: localRecord({}, 'D') }), 'C');
    assert.match(m!, /^LayerSlider WP: estimated grade D \(measured locally, PHP 8\.2, WordPress 6\.1\.9, 2026-11-25\), below the minimum C\. Activation adds 1\.5 ms TTFB, 8\.8 MB memory, 6 queries\.$/);
  });

  it('site total: API numbers where the API has a benchmark, local ones elsewhere, counted apart', () => {
    const api = (slug: string, kb: number): LookupOutcome => ({ kind: 'plugin', slug, stale: false, fromCache: true, result: { state: 'benchmarked', record: { ...localAsBenchmark(localRecord()), slug, contexts: { activation: null, homepage: { ttfbDeltaMs: 1, memoryDeltaKb: kb, queriesDelta: 1 }, admin: null } } } });
    const none: LookupOutcome = { kind: 'plugin', slug: 'n', stale: false, fromCache: true, result: { state: 'not-in-dataset', kind: 'plugin', slug: 'n' } };
    const t = mixedSiteTotal([
      { outcome: api('a', 100), local: undefined },
      { outcome: api('b', 200), local: result({ slug: 'b' }) }, // the API's numbers win
      { outcome: none, local: result({ stale: true }) },
      { outcome: undefined, local: undefined },
    ]);
    assert.equal(t.fromApi, 2);
    assert.equal(t.local, 1);
    assert.equal(t.unknown, 1);
    assert.equal(t.contexts.homepage.memoryDeltaKb, 100 + 200 + 10240);
    assert.equal(siteSourcesLine(t), '2 from the benchmark API, 1 measured locally, 1 unknown, 1 local measurement stale');
  });

  it('measurableSource: a plugin header file, a theme folder, nothing for composer-only entries', () => {
    assert.equal(measurableSource({ kind: 'plugin', locations: [{ file: '/w/composer.json', source: 'composer.json' }, { file: '/w/p/p.php', source: 'plugin-header' }] }), '/w/p/p.php');
    assert.equal(measurableSource({ kind: 'theme', locations: [{ file: '/w/t/style.css', source: 'theme-header' }] }), '/w/t');
    assert.equal(measurableSource({ kind: 'plugin', locations: [{ file: '/w/composer.json', source: 'composer.json' }] }), undefined);
  });
});

describe('local records in the session surfaces', () => {
  async function session(trusted: boolean, reply?: () => { status: number; body: unknown }) {
    const api = fakeApi();
    if (reply) api.reply = reply;
    const ws = tmp();
    const folder = plugin(path.join(ws, 'wp-content', 'plugins'));
    const { sessionHost } = fakeHost(api, {
      folders: [ws],
      trusted,
      scan: async (root) => ({ root, components: [{ kind: 'plugin', slug: reply ? 'layerslider' : 'LayerSlider', name: 'LayerSlider WP', version: '7.11.0', locations: [{ file: 'wp-content/plugins/layerslider/layerslider.php', line: 3, column: 14, length: 14, source: 'plugin-header' }], lookup: reply ? 'yes' : 'not-a-wordpress-org-slug' }], problems: [], stats: { filesOpened: 0, bytesRead: 0, dirsRead: 0 } }),
    });
    const s = new WorkspaceSession(sessionHost);
    await s.refreshKeyState();
    await s.rescan();
    return { s, folder };
  }

  it('hover offers Measure Locally only in a trusted workspace, then shows the local record; diagnostics judge it', async () => {
    const { s, folder } = await session(true);
    const entry = s.components[0];
    assert.match(componentHover(s, entry), /\[Measure locally\]\(command:wpBench\.measureLocally\?/);
    assert.equal(entry.lookup, 'not-a-wordpress-org-slug', 'a premium folder: the API is never asked');
    let changes = 0;
    s.onDidChange(() => changes++);
    await s.local.set('plugin', 'LayerSlider', path.join(folder, 'layerslider.php'), (await hashOfPath(folder))!, localRecord({}, 'E'));
    assert.ok(changes > 0, 'a new local record refreshes the surfaces');
    const hover = componentHover(s, entry);
    assert.match(hover, /Measured locally\*\* · ≈E local/);
    assert.match(hover, /the site total counts its local measurement/);
    assert.doesNotMatch(hover, /counts as unknown/);
    assert.doesNotMatch(hover, /command:/, 'a fresh record needs no link');
    const d = componentDiagnostic(s, entry, entry.locations[0].file);
    assert.equal(d?.code, 'local-grade-below-threshold');
    assert.match(d!.message, /estimated grade E \(measured locally/);
    s.dispose();
    const untrusted = await session(false);
    assert.match(componentHover(untrusted.s, untrusted.s.components[0]), /counts as unknown in the site total/);
    assert.doesNotMatch(componentHover(untrusted.s, untrusted.s.components[0]), /command:/);
    untrusted.s.dispose();
  });

  it('Export Report and the site report judge the local record: marked local, counted, stale after an edit', async () => {
    const { s, folder } = await session(true);
    assert.equal(s.judgement().counts.local, 0);
    await s.local.set('plugin', 'LayerSlider', path.join(folder, 'layerslider.php'), (await hashOfPath(folder))!, localRecord({}, 'B'));
    let v = s.judgement().components.find((c) => c.slug === 'LayerSlider')!;
    assert.equal(v.source, 'local');
    assert.equal(v.stale, false);
    assert.equal(s.judgement().counts.local, 1);
    assert.match(toMarkdown(s.judgement()).replace(/\\(.)/g, '$1'), /measured locally, PHP 8\.2, WordPress 6\.1\.9, 2026-11-25/);
    fs.appendFileSync(path.join(folder, 'layerslider.php'), '// edited\n');
    await s.local.recheck();
    v = s.judgement().components.find((c) => c.slug === 'LayerSlider')!;
    assert.equal(v.stale, true, 'files changed since the measurement: the report says so');
    assert.deepEqual(chartData(s.judgement(), 'homepage', 'ttfb').bars.map((b) => b.name), ['LayerSlider WP (measured locally, stale)'], 'the bar of the site report says where its number comes from');
    assert.match(toMarkdown(s.judgement()), /\(stale\)/);
    s.dispose();
  });

  it('with an API benchmark the hover shows both, the API grade decides the diagnostic, no link', async () => {
    const { s, folder } = await session(true, () => ({ status: 200, body: sampleBody({ slug: 'layerslider', speed_score: { grade: 'A', numeric: 95 } }) }));
    const entry = s.components[0];
    assert.doesNotMatch(componentHover(s, entry), /command:/);
    await s.local.set('plugin', 'layerslider', folder, (await hashOfPath(folder))!, localRecord({}, 'E'));
    assert.match(componentHover(s, entry), /API: TTFB · memory · queries \| Local: TTFB · memory · queries/);
    assert.equal(componentDiagnostic(s, entry, entry.locations[0].file), null);
    s.dispose();
  });
});

describe('measure child process', () => {
  const fakeCli = (script: string) => {
    const f = path.join(tmp(), 'cli.js');
    fs.writeFileSync(f, script);
    return f;
  };
  const base = { node: process.execPath, path: '/x', cwd: os.tmpdir() };

  it('passes no secret to the child and makes Electron act as Node', () => {
    const env = measureChildEnv({ PATH: '/bin', HOME: '/h', WPBENCH_API_KEY: 'k', GITHUB_TOKEN: 't', AWS_SECRET_ACCESS_KEY: 's', VSCODE_IPC_HOOK: 'x' }, { WPBENCH_CACHE_DIR: '/c' });
    assert.deepEqual(env, { PATH: '/bin', HOME: '/h', ELECTRON_RUN_AS_NODE: '1', WPBENCH_CACHE_DIR: '/c' });
    assert.equal(progressStep('wp-bench: building a throwaway site (WordPress 6.1.9, PHP 8.2.36) in /tmp/wp-bench-measure-x'), 'building a throwaway site (WordPress 6.1.9, PHP 8.2.36)');
    assert.equal(progressStep('wp-bench: site at http://127.0.0.1:1 (server pid 42)'), 'site at http://127.0.0.1:1');
  });

  it('reports progress lines and resolves with the record', async () => {
    const cli = fakeCli(`process.stderr.write('wp-bench: installing WordPress\\nwp-bench: measuring: round 1/9\\n'); console.log(JSON.stringify(${JSON.stringify(localRecord())}));`);
    const steps: string[] = [];
    const r = await runMeasureChild({ ...base, cli, env: measureChildEnv(process.env), onProgress: (s) => steps.push(s) });
    assert.equal(r.slug, 'layerslider');
    assert.deepEqual(steps, ['installing WordPress', 'measuring: round 1/9']);
  });

  it('a missing runtime is exit 8 with the CLI last line; output that is not a record fails', async () => {
    const cli = fakeCli(`process.stderr.write('wp-bench: no runtime can run: php not found. To measure, install PHP\\n'); process.exit(8);`);
    await assert.rejects(runMeasureChild({ ...base, cli, env: {} }), (e: MeasureChildError) => e.exitCode === 8 && /^no runtime can run/.test(e.message));
    const junk = fakeCli(`console.log('{"source":"api"}')`);
    await assert.rejects(runMeasureChild({ ...base, cli: junk, env: {} }), /printed no record/);
  });

  it('cancel terminates the child (SIGKILL after the grace period if it ignores SIGTERM)', async () => {
    const cli = fakeCli(`process.on('SIGTERM', () => {}); process.stderr.write('wp-bench: installing WordPress\\n'); setInterval(() => {}, 1000);`);
    const ac = new AbortController();
    let pid = 0;
    const run = runMeasureChild({ ...base, cli, env: {}, signal: ac.signal, killGraceMs: 200, onSpawn: (p) => (pid = p), onProgress: () => ac.abort() });
    await assert.rejects(run, (e: MeasureChildError) => e.cancelled);
    assert.throws(() => process.kill(pid, 0), /ESRCH/);
  });
});
