// `measure SITE --site --browser`: the site's browser figures from recorded loads (modelled on loads of a 3-member
// site through the gates: a plugin with a 300 KB head script, a plugin with no front end, a theme with its
// stylesheet): the stack against the clean site, each member in the site (the stack against the stack without it),
// each member's own files in the stack's loads, the record's shape, and the reports, every handle and URL escaped.
import assert from 'node:assert/strict';
import { browserWithinNoise, BROWSER_NOISE } from '../../../../src/core/measure/browser/figures';
import { DESKTOP, type BrowserInfo, type BrowserLoad, type LoadRequest } from '../../../../src/core/measure/browser/types';
import { memberFolders, siteBrowserFigures, withSiteBrowser } from '../../../../src/core/measure/siteRun/siteBrowserFigures';
import { isSiteRecord, type SiteRecord } from '../../../../src/core/measure/siteRun/siteRecord';
import { siteRecordProblem } from '../../../../src/core/measure/siteRun/shardShape';
import { mergeSiteRecords } from '../../../../src/core/measure/siteRun/shards';
import { siteHtml, siteMarkdown } from '../../../../src/core/report/siteFormats';
import { siteTable } from '../../../../src/core/report/siteText';
import { fig } from '../../helpers/siteRecord';

const req = (url: string, type: LoadRequest['type'], bytes: number, extra: Partial<LoadRequest> = {}): LoadRequest => ({ url, type, bytes, status: 200, render_blocking: false, start_ms: 0, response_ms: 40, end_ms: 50, ...extra });

const HEAVY_JS = '/wp-content/plugins/heavy/head.js?ver=1.0';
const THEME_CSS = '/wp-content/themes/shop/style.css?ver=2.0';
const BASE_CSS = '/wp-content/themes/wpbench-baseline/style.css';

/** A load of configuration `side`: the document, the theme's stylesheet, and the heavy plugin's head script when it runs. */
function load(side: string, round: number, parts: { heavy: boolean; theme: boolean }, hostile = false): BrowserLoad {
  // Each round's machine noise: the same for every configuration of that round (the paired spread is 0 then).
  const fcp = 100 + round * 7 + (parts.heavy ? 250 : 0) + (parts.theme ? 20 : 0);
  const heavyUrl = hostile ? '/wp-content/plugins/heavy/<img src=x onerror=alert(1)>|`x`.js' : HEAVY_JS;
  return {
    side,
    round,
    fcp_ms: fcp,
    lcp_ms: fcp + 5,
    load_ms: fcp + 30,
    end_ms: fcp + 1100,
    long_tasks: parts.heavy ? [{ start_ms: fcp - 255, duration_ms: 250 }] : [],
    layout_shifts: [],
    requests: [
      req('/', 'document', 10_240),
      parts.theme ? req(THEME_CSS, 'stylesheet', 20_480, { render_blocking: true }) : req(BASE_CSS, 'stylesheet', 1_024, { render_blocking: true }),
      ...(parts.heavy ? [req(heavyUrl, 'script', 307_200, { render_blocking: true })] : []),
    ],
    scripts: parts.heavy ? [{ url: heavyUrl, main_thread_ms: 250 }] : [],
    handles: { ...(parts.heavy ? { [heavyUrl.replace(/\?.*$/, '')]: hostile ? 'heavy</code><script>x</script>|*h*' : 'heavy-head' } : {}), ...(parts.theme ? { '/wp-content/themes/shop/style.css': 'shop-style' } : {}) },
    blocked: [],
  };
}

/** Five rounds of the configurations the pass loads: clean, the stack, the stack without each member. */
function siteLoads(hostile = false): BrowserLoad[] {
  const configs: Record<string, { heavy: boolean; theme: boolean }> = {
    clean: { heavy: false, theme: false },
    stack: { heavy: true, theme: true },
    'without:plugin:heavy': { heavy: false, theme: true },
    'without:plugin:quiet': { heavy: true, theme: true },
    'without:theme:shop': { heavy: true, theme: false },
  };
  return Array.from({ length: 5 }, (_, r) => Object.entries(configs).map(([id, parts]) => load(id, r, parts, hostile))).flat();
}

const MEMBERS = [
  { id: 'plugin:heavy', folders: ['/wp-content/plugins/heavy/'] },
  { id: 'plugin:quiet', folders: ['/wp-content/plugins/quiet/'] },
  { id: 'theme:shop', folders: ['/wp-content/themes/shop/'] },
];

const INFO: BrowserInfo = { chromium: '140.0.7339.185', device: 'desktop', rounds: 5, profile: DESKTOP, sandbox: 'bubblewrap' };

/** The server's record of that site (figures made up: the browser's are what is under test). */
function serverRecord(): SiteRecord {
  const ctx = { activation: fig(3, 100, 1), homepage: fig(2, 50, 1), admin: fig(1, 10, 0) };
  const member = (kind: 'plugin' | 'theme', slug: string) => ({ kind, slug, name: slug, alone: { contexts: ctx }, in_site: { contexts: ctx }, left_out: null });
  return {
    source: 'local',
    site: { contexts: ctx, clean: { contexts: { activation: null, homepage: { ttfb_ms: 20, memory_kb: 2048, queries: 10 }, admin: null } } },
    components: [member('plugin', 'heavy'), member('plugin', 'quiet'), member('theme', 'shop'), { kind: 'plugin', slug: 'broken', name: 'Broken', alone: null, in_site: null, left_out: 'its activation failed' }],
    sum_of_alone: { contexts: ctx },
    drop_ins_left_out: [],
    local: { database: null, theme: 'shop', wordpress: '6.8.1', php: '8.2.36', runtime: 'php', rounds: 4, configurations: 8, duration_s: 30 },
  };
}

describe('measure SITE --site --browser: the arithmetic on recorded loads', () => {
  const f = siteBrowserFigures(siteLoads(), MEMBERS);

  it('the stack against the clean site: its bytes, requests and paints, and every member\'s own files', () => {
    // 300 KB of script + the theme's 20 KB stylesheet in place of the baseline's 1 KB one.
    assert.equal(f.stack.bytes_kb, 319);
    assert.equal(f.stack.requests, 1);
    assert.equal(f.stack.render_blocking, 1);
    assert.equal(f.stack.fcp_ms, 270);
    assert.equal(f.stack.tbt_ms, 0, 'the head script works before the first paint');
    assert.deepEqual(f.stack.assets.map((a) => [a.url, a.handle]), [['/wp-content/plugins/heavy/head.js', 'heavy-head'], ['/wp-content/themes/shop/style.css', 'shop-style']]);
    assert.deepEqual(f.clean, { bytes_kb: 11, requests: 2, render_blocking: 1, fcp_ms: 114, lcp_ms: 119, tbt_ms: 0, cls: 0 });
  });

  it('each member in the site is the stack minus the stack without it: what removing it saves the visitor', () => {
    const heavy = f.members['plugin:heavy'];
    assert.equal(heavy.bytes_kb, 300);
    assert.equal(heavy.requests, 1);
    assert.equal(heavy.render_blocking, 1);
    assert.equal(heavy.fcp_ms, 250);
    assert.deepEqual(heavy.assets, [{ url: '/wp-content/plugins/heavy/head.js', type: 'script', bytes_kb: 300, render_blocking: true, main_thread_ms: 250, handle: 'heavy-head' }]);
    // The theme in the site: its stylesheet in place of the baseline theme's.
    const shop = f.members['theme:shop'];
    assert.equal(shop.bytes_kb, 19);
    assert.equal(shop.requests, 0);
    assert.deepEqual(shop.assets.map((a) => a.url), ['/wp-content/themes/shop/style.css']);
  });

  it('a member with no front end reads within noise on every figure, and has no file on the homepage', () => {
    const quiet = f.members['plugin:quiet'];
    for (const k of Object.keys(BROWSER_NOISE) as (keyof typeof BROWSER_NOISE)[]) assert.equal(browserWithinNoise(quiet, k), true, `${k}: ${quiet[k]} ± ${quiet.spread[k]}`);
    assert.equal(quiet.requests, 0);
    assert.deepEqual(quiet.assets, []);
  });

  it('a member whose configuration was not loaded (another shard\'s) has no figures', () => {
    const g = siteBrowserFigures(siteLoads().filter((l) => l.side !== 'without:plugin:quiet'), MEMBERS);
    assert.deepEqual(Object.keys(g.members).sort(), ['plugin:heavy', 'theme:shop']);
  });

  it('a member\'s own folders in the throwaway site: a plugin\'s folder, a child theme with its parent, a must-use plugin\'s file and folders', () => {
    assert.deepEqual(memberFolders({ kind: 'plugin', singleFile: false, mainFile: 'acme.php' }, { target: 'acme/acme.php' }), ['/wp-content/plugins/acme/']);
    assert.deepEqual(memberFolders({ kind: 'plugin', singleFile: true, mainFile: 'hello.php' }, { target: 'hello.php' }), ['/wp-content/plugins/hello.php']);
    assert.deepEqual(memberFolders({ kind: 'theme', singleFile: false, mainFile: 'style.css' }, { target: 'shop-child', template: 'shop' }), ['/wp-content/themes/shop-child/', '/wp-content/themes/shop/']);
    assert.deepEqual(memberFolders({ kind: 'plugin', singleFile: true, mainFile: 'loader.php', mustUse: true, muFolders: ['acme'] }, { target: 'mu-plugins/loader.php' }), ['/wp-content/mu-plugins/loader.php', '/wp-content/mu-plugins/acme/']);
  });
});

describe('measure SITE --site --browser: the record and the reports', () => {
  const withFigures = (hostile = false) => withSiteBrowser(serverRecord(), { ...siteBrowserFigures(siteLoads(hostile), MEMBERS), info: INFO });

  it('the record: site.browser (the stack), site.clean.browser, each member\'s in_site.browser, local.browser; a shape every reader accepts', () => {
    const r = withFigures();
    assert.equal(r.site.browser?.bytes_kb, 319);
    assert.equal(r.site.clean?.browser?.requests, 2);
    assert.equal(r.components.find((c) => c.slug === 'heavy')?.in_site?.browser?.bytes_kb, 300);
    assert.equal(r.components.find((c) => c.slug === 'broken')?.in_site, null, 'a member left out has no figures');
    assert.deepEqual(r.local.browser, INFO);
    assert.equal(isSiteRecord(r), true);
    assert.equal(siteRecordProblem(JSON.parse(JSON.stringify(r))), undefined);
    // A shard's browser figures survive the merge (the stack from shard 1, each member from its shard).
    const merged = mergeSiteRecords([{ ...r, local: { ...r.local, shard: { k: 1, n: 1 } } }]);
    assert.equal(merged.site.browser?.bytes_kb, 319);
    assert.equal(merged.components.find((c) => c.slug === 'heavy')?.in_site?.browser?.bytes_kb, 300);
  });

  it('no browser: the reason in local.browser, the server figures as they were', () => {
    const r = withSiteBrowser(serverRecord(), { unavailable: 'Chromium was not found: sudo apt install chromium' });
    assert.deepEqual(r.local.browser, { unavailable: 'Chromium was not found: sudo apt install chromium' });
    assert.equal(r.site.browser, undefined);
    assert.deepEqual(r.components, serverRecord().components);
    assert.match(siteTable(r), /Browser: not measured — Chromium was not found: sudo apt install chromium\./);
  });

  it('a browser figure of the wrong shape is refused when a record is read back', () => {
    const r = JSON.parse(JSON.stringify(withFigures()));
    r.components[0].in_site.browser.bytes_kb = 'a lot';
    assert.equal(isSiteRecord(r), false);
    assert.match(siteRecordProblem(r) ?? '', /components\[0\]\.in_site\.browser\.bytes_kb must be a finite number/);
    const s = JSON.parse(JSON.stringify(withFigures()));
    s.site.browser.assets[0].url = 42;
    assert.equal(isSiteRecord(s), false);
    assert.match(siteRecordProblem(s) ?? '', /site\.browser\.assets\[0\]\.url must be a string/);
    // How the loads were taken: the reports read its profile's figures.
    const i = JSON.parse(JSON.stringify(withFigures()));
    delete i.local.browser.profile.throughput_kbps;
    assert.equal(isSiteRecord(i), false);
    assert.match(siteRecordProblem(i) ?? '', /local\.browser\.profile\.throughput_kbps must be a finite number/);
    assert.equal(isSiteRecord(withSiteBrowser(serverRecord(), { unavailable: 'no Chromium' })), true);
  });

  it('the table: the stack and each member in the site, per figure; a member with no file on the homepage says so', () => {
    const all = siteTable(withFigures());
    const t = all.slice(all.indexOf('What the visitor pays'));
    assert.ok(t.length < all.length, all);
    assert.match(t, /What the visitor pays on the homepage: Chromium 140\.0\.7339\.185, desktop/);
    const row = (label: string) => t.split('\n').find((l) => l.includes(label)) ?? '';
    assert.match(row('the stack (against clean WordPress)'), /\+319\.0 KB.*\+1 .*\+270 ms/);
    assert.match(row('plugin heavy'), /\+300\.0 KB.*\+250 ms/);
    assert.match(row('plugin quiet'), /±0\.0 KB \(within noise\)/);
    assert.match(t, /plugin quiet: none of its files loads on the homepage/);
    assert.match(t, /plugin heavy: \/wp-content\/plugins\/heavy\/head\.js \(script, handle heavy-head\): 300\.0 KB, render-blocking, 250 ms main thread/);
    assert.match(t, /Clean WordPress itself in the browser: 11\.0 KB, 2 requests/);
    assert.doesNotMatch(t, /failed in most loads/);
    // Requests the site failed in most loads (a stripped core): said under the table.
    const failed = withSiteBrowser(serverRecord(), { ...siteBrowserFigures(siteLoads(), MEMBERS), info: { ...INFO, failed_requests: ['/wp-includes/css/dist/block-library/common.min.css (config:clean: net::ERR_ABORTED)'] } });
    assert.match(siteTable(failed), /Warning: 1 request of the site failed in most loads \(the figures leave out what they would have cost\): \/wp-includes\/css\/dist\/block-library\/common\.min\.css \(config:clean: net::ERR_ABORTED\)/);
  });

  it('markdown and HTML: every figure, and a hostile handle and URL escaped (no markup, no new table cell)', () => {
    const r = withFigures(true);
    const whole = siteMarkdown(r);
    assert.match(whole, /### What the visitor pays/);
    const md = whole.slice(whole.indexOf('### What the visitor pays'));
    assert.ok(!/(?<!\\)<(script|img|\/code)/.test(md), md);
    const files = md.split('\n').find((l) => l.includes('onerror'));
    assert.ok(files, md);
    assert.ok(!/(?<!\\)[<`|*]/.test(files.replace(/^- /, '').replace(/`plugin heavy`|`heavy`/g, '')), files);
    const rows = md.split('\n').filter((l) => l.startsWith('| ') && l.includes('heavy'));
    for (const l of rows) assert.equal(l.split(/(?<!\\)\|/).length, 11, l);
    const html = siteHtml(r);
    assert.match(html, /<h3>What the visitor pays/);
    assert.ok(!html.includes('<script>x') && !html.includes('<img src=x'), 'no markup from the page');
    assert.match(html, /&#60;img src=x onerror=alert\(1\)&#62;/);
    assert.match(html, /heavy&#60;\/code&#62;&#60;script&#62;x&#60;\/script&#62;/);
    assert.match(html, /±0\.0&nbsp;KB \(within noise\)/);
  });
});
