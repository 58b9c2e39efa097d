// `measure --findings`: where an asset really comes from (issue 45), on records as the collector writes them. Modelled
// on MonsterInsights's "monsterinsights-vue-vendors": the dashboard registers the handle early with a 640 KB bundle
// (WordPress keeps the first registration) and every screen enqueues the same handle with a 185 KB file later; and
// jQuery, enqueued on every admin screen, which WordPress's admin prints there anyway (the clean side's records say so).
import * as assert from 'node:assert/strict';
import { aggregateFindings } from '../../../../src/core/measure/findings/aggregate';
import type { RawFindings, RawWhere } from '../../../../src/core/measure/findings/types';
import { parseRawFindings } from '../../../../src/core/measure/run/findingsPass';

type Asset = NonNullable<RawFindings['assets']>[number];
const W = (line: number, callee: string, file = 'inc/vendors.php'): RawWhere => ({ file, line, function: '{closure}', callee, via: null });
const REG = W(5, 'wp_register_script');
const DASH = W(6, 'wp_enqueue_script');
const ALL = W(9, 'wp_enqueue_script');
const JQ = W(10, 'wp_enqueue_script');
const URL = 'http://127.0.0.1:8000/wp-content/plugins/acme-findings/assets/';
const vendors = (screen: string): Asset =>
  screen === 'index.php'
    ? { type: 'script', handle: 'acme-vendors', src: `${URL}vendors-full.js?ver=1.0`, reg: REG, enq: DASH, enqs: [DASH, ALL], printed: true, in_head: false, deferred: false, bytes: 640_000 }
    : { type: 'script', handle: 'acme-vendors', src: `${URL}vendors.js?ver=1.0`, reg: ALL, enq: ALL, enqs: [ALL], printed: true, in_head: false, deferred: false, bytes: 185_000 };
const jquery = (where = JQ, extra: Partial<Asset> = {}): Asset => ({ type: 'script', handle: 'jquery', enq: where, enqs: [where], printed: true, in_head: true, deferred: false, bytes: null, ...extra });
const CORE_ADMIN = { script: ['jquery-core', 'jquery-migrate', 'jquery', 'utils', 'common', 'admin-bar'], style: ['dashicons', 'admin-bar', 'common'] };
const measured = (ctx: string, screen: string, assets: Asset[], done = CORE_ADMIN): RawFindings => ({ v: 1, id: `m-${screen}`, phase: `p:${ctx}:${screen}`, side: 'measured', writes: [], assets, done: { script: [...done.script, ...assets.filter((a) => a.type === 'script').map((a) => a.handle)], style: done.style } });
const clean = (ctx: string, screen: string, done = CORE_ADMIN): RawFindings => ({ v: 1, id: `c-${screen}`, phase: `p:${ctx}:${screen}`, side: 'baseline', writes: [], assets: [], done });
const admin = (assets: (screen: string) => Asset[]) => [measured('admin', 'index.php', assets('index.php')), measured('admin', 'options-general.php', assets('options-general.php')), clean('admin', 'index.php'), clean('admin', 'options-general.php')];
const where = (fs: ReturnType<typeof aggregateFindings>) => fs.map((f) => `${f.kind} ${f.file}:${f.line}`).sort();

describe('measure --findings: where an asset really comes from (issue 45)', () => {
  it('one handle, two files: the large file WordPress kept on the dashboard at its registration; every screen at the line that enqueues it everywhere, with that file', () => {
    const fs = aggregateFindings(admin((s) => [vendors(s)]));
    assert.deepEqual(where(fs), ['admin-asset-everywhere inc/vendors.php:9', 'large-asset inc/vendors.php:5']);
    const large = fs.find((f) => f.kind === 'large-asset')!;
    assert.deepEqual([large.evidence.bytes, large.evidence.screens, large.contexts, large.saves], [640_000, ['index.php'], ['admin'], { admin: { bytes: 640_000 } }]);
    const everywhere = fs.find((f) => f.kind === 'admin-asset-everywhere')!;
    assert.deepEqual([everywhere.evidence.bytes, everywhere.evidence.screens, everywhere.severity], [185_000, ['index.php', 'options-general.php'], 'warning']);
    assert.match(everywhere.message, /"acme-vendors" \(181 KB\)/);
  });

  it('the order the records are read in does not move a finding', () => {
    const fs = aggregateFindings(admin((s) => [vendors(s)]).reverse());
    assert.deepEqual(where(fs), ['admin-asset-everywhere inc/vendors.php:9', 'large-asset inc/vendors.php:5']);
  });

  it('jQuery enqueued on every admin screen, which the clean side prints there too: no finding', () => {
    const fs = aggregateFindings(admin(() => [jquery()]));
    assert.deepEqual(where(fs), []);
  });

  it('without the clean side\'s records nothing is taken for WordPress\'s own: jQuery everywhere is said (information)', () => {
    const fs = aggregateFindings(admin(() => [jquery()]).filter((r) => r.side !== 'baseline'));
    assert.deepEqual(where(fs), ['admin-asset-everywhere inc/vendors.php:10']);
    assert.equal(fs[0].severity, 'information');
  });

  it('on that screen only: jQuery in the home page\'s head is the component\'s cost where the clean front end prints no jQuery, none where it does', () => {
    const front = (cleanDone: string[]) => aggregateFindings([measured('homepage', 'front', [jquery(W(3, 'wp_enqueue_script', 'inc/front.php'))], { script: [], style: [] }), clean('homepage', 'front', { script: cleanDone, style: [] })]);
    assert.deepEqual(where(front([])), ['render-blocking-script inc/front.php:3']);
    assert.deepEqual(where(front(['jquery-core', 'jquery-migrate', 'jquery'])), []);
  });

  it('a core handle the component registers again with a file of its own (deregistered first): its file is its cost', () => {
    const own = W(12, 'wp_register_script');
    const big = jquery(JQ, { reg: own, src: `${URL}jquery-own.js`, bytes: 400_000 });
    const fs = aggregateFindings(admin(() => [big]));
    assert.deepEqual(where(fs), ['admin-asset-everywhere inc/vendors.php:10', 'large-asset inc/vendors.php:12']);
  });

  it('registered inline by the enqueue (wp_enqueue_script with a src): both findings at that line', () => {
    const inline = (): Asset => ({ type: 'script', handle: 'acme-all', src: `${URL}all.js`, reg: ALL, enq: ALL, enqs: [ALL], printed: true, in_head: false, deferred: false, bytes: 350_000 });
    const fs = aggregateFindings(admin(() => [inline()]));
    assert.deepEqual(where(fs), ['admin-asset-everywhere inc/vendors.php:9', 'large-asset inc/vendors.php:9']);
  });

  it('the record\'s new fields are checked for shape: a damaged list is left out, not thrown', () => {
    const r = parseRawFindings(JSON.stringify({ v: 1, id: 'x', phase: 'p:admin:index.php', side: 7, writes: [], done: { script: ['jquery', 3], style: 'x' }, assets: [{ type: 'script', handle: 'a', enqs: [{ file: 1 }, W(2, 'wp_enqueue_script')], printed: true }, { type: 'script', handle: 'b', enqs: 'x', printed: true }] }))!;
    assert.equal(r.side, undefined);
    assert.deepEqual(r.done, { script: ['jquery'], style: [] });
    assert.deepEqual(r.assets!.map((a) => a.enqs), [[W(2, 'wp_enqueue_script')], []]);
  });
});
