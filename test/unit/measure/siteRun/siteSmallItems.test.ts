// measure --site, the small items of issue 45: `wp-bench merge` shows a single saved --site record in any format;
// `measure SITE` on a site's folder without --site suggests --site; the record carries the clean site's own medians.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { mergeSiteRecords } from '../../../../src/core/measure/siteRun/shards';
import { siteRecordProblem } from '../../../../src/core/measure/siteRun/shardShape';
import { isSiteRecord } from '../../../../src/core/measure/siteRun/siteRecord';
import { siteArithmetic, type SiteSamples } from '../../../../src/core/measure/siteRun/sitePlan';
import { siteTable } from '../../../../src/core/report/siteText';
import { siteMarkdown } from '../../../../src/core/report/siteFormats';
import type { Sample } from '../../../../src/core/measure/record/method';
import { cli, removeTmpDirs, tmpDir } from '../../helpers/cliRun';
import { siteRecord } from '../../helpers/siteRecord';

const clean = { contexts: { activation: { ttfb_ms: 21.3, memory_kb: 2048, queries: 10 }, homepage: { ttfb_ms: 30.5, memory_kb: 2304, queries: 14 }, admin: null } };

describe('wp-bench merge: a single saved --site record shown again (issue 45)', () => {
  after(removeTmpDirs);

  it('one record measured without --shard is shown as it is; two such records are still refused', () => {
    const r = siteRecord();
    assert.deepEqual(mergeSiteRecords([r]), r);
    assert.throws(() => mergeSiteRecords([siteRecord(), siteRecord()]), /without --shard/);
  });

  it('in every format, from its file', async () => {
    const dir = await tmpDir('wpb-merge-one-');
    const file = path.join(dir, 'site.json');
    await fs.writeFile(file, JSON.stringify(siteRecord()));
    for (const [args, want] of [
      [[], /The site as it runs — measured locally/],
      [['--json'], /^\{"source":"local"/],
      [['--format', 'markdown'], /^## WP Bench: the site as it runs/],
      [['--format', 'html'], /^<!DOCTYPE html>/i],
    ] as const) {
      const r = await cli(['merge', file, ...args], {}, dir);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
      assert.match(r.out, want, args.join(' '));
      // The record does not name the site: no made-up subject in the title ("— site").
      assert.doesNotMatch(r.out, /as it runs — site\b/, args.join(' '));
    }
  });
});

describe('measure SITE without --site on a site\'s folder suggests --site (issue 45)', () => {
  after(removeTmpDirs);
  const put = async (dir: string, rel: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), text);
  };

  for (const [shape, layout] of [
    ['a wp-content site', { 'wp-content/plugins/acme/acme.php': '<?php\n/*\nPlugin Name: Acme\n*/\n', 'wp-content/themes/shop/style.css': '/*\nTheme Name: Shop\n*/\n' }],
    ['a Bedrock site', { 'composer.json': '{"name":"client/site"}', 'web/app/plugins/acme/acme.php': '<?php\n/*\nPlugin Name: Acme\n*/\n', 'web/app/mu-plugins/loader.php': '<?php\n// loads what it needs\n' }],
  ] as const) {
    it(`${shape}: "no plugin or theme" says to measure it with --site (exit 2, nothing started)`, async () => {
      const dir = await tmpDir('wpb-site-hint-');
      for (const [rel, text] of Object.entries(layout)) await put(dir, rel, text);
      const r = await cli(['measure', dir], { WPBENCH_CACHE_DIR: await tmpDir('wpb-site-hint-cache-') }, dir);
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, /no plugin or theme in/);
      assert.match(r.err, /--site/, r.err);
      assert.match(r.err, /acme/, 'names what the scan found');
    });
  }

  it('a folder that holds no component at all is not told to use --site', async () => {
    const dir = await tmpDir('wpb-site-hint-none-');
    await put(dir, 'README.md', '# nothing here\n');
    const r = await cli(['measure', dir], { WPBENCH_CACHE_DIR: await tmpDir('wpb-site-hint-cache-') }, dir);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /no plugin or theme in/);
    assert.doesNotMatch(r.err, /--site/);
  });
});

describe('the --site record carries the clean site\'s own medians (issue 45)', () => {
  const s = (ttfbMs: number, kb: number, queries: number, round: number): Sample => ({ ttfbMs, memoryBytes: kb * 1024, queries, round });

  it('siteArithmetic: per context, the clean site\'s median TTFB, memory and queries (null where it has none)', () => {
    const samples: SiteSamples = {
      clean: { homepage: [s(30, 2304, 14, 1), s(31, 2304, 14, 2), s(45, 2304, 14, 3)] },
      stack: { homepage: [s(40, 3000, 20, 1), s(41, 3000, 20, 2), s(42, 3000, 20, 3)] },
    };
    const a = siteArithmetic(samples, []);
    assert.deepEqual(a.clean.homepage, { ttfb_ms: 31, memory_kb: 2304, queries: 14 });
    assert.equal(a.clean.admin, null);
  });

  it('the record\'s shape: site.clean checked when present; the table and the Markdown say the clean site\'s figures', () => {
    const r = { ...siteRecord(), site: { ...siteRecord().site, clean } };
    assert.equal(isSiteRecord(r), true);
    assert.equal(siteRecordProblem(r), undefined);
    const bad = { ...r, site: { ...r.site, clean: { contexts: { ...clean.contexts, homepage: { ttfb_ms: 30, memory_kb: 2304, queries: '14' } } } } };
    assert.equal(isSiteRecord(bad), false);
    assert.equal(siteRecordProblem(bad), 'site.clean.contexts.homepage.queries must be a finite number (got "14")');
    assert.match(siteTable(r), /Clean WordPress itself \(the baseline\): activation 21\.3 ms · 2,048 KB · 10 q; homepage 30\.5 ms · 2,304 KB · 14 q; admin not measured/);
    assert.match(siteMarkdown(r, { subject: 'x' }), /Clean WordPress itself \(the baseline\): activation 21\.3 ms · 2,048 KB · 10 q; homepage 30\.5 ms/);
    assert.doesNotMatch(siteTable(siteRecord()), /Clean WordPress itself/, 'a record from before it was kept');
  });
});

describe('a saved record\'s TTFB interval is checked as the rest of it (issue 45)', () => {
  it('two finite numbers, or refused naming the field', () => {
    const r = siteRecord();
    r.site.contexts.homepage = { ...r.site.contexts.homepage!, spread: { ttfb_ms: 1, memory_kb: 0, queries: 0, ttfb_interval_ms: [-1, 3] } };
    assert.equal(siteRecordProblem(r), undefined);
    (r.site.contexts.homepage.spread as unknown as { ttfb_interval_ms: unknown }).ttfb_interval_ms = ['-1', 3];
    assert.equal(siteRecordProblem(r), 'site.contexts.homepage.spread.ttfb_interval_ms[0] must be a finite number (got "-1")');
  });
});
