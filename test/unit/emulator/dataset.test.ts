import assert from 'node:assert/strict';
import {
  ADMIN_NULL_EVERY,
  GRADES,
  HOMEPAGE_NULL_EVERY,
  NOT_BENCHMARKED_EVERY,
  REAL_SLUGS,
  activationBadness,
  datasetSize,
  gradeFor,
  knownSlugs,
  recordFor,
  slugState,
  syntheticSlug,
  unknownSlugs,
} from '../../../src/emulator/dataset';

const REQUIRED_PLUGINS = [
  'akismet', 'woocommerce', 'wordpress-seo', 'contact-form-7', 'elementor', 'jetpack', 'wordfence',
  'classic-editor', 'hello-dolly', 'query-monitor', 'advanced-custom-fields', 'wpforms-lite',
  'litespeed-cache', 'really-simple-ssl', 'all-in-one-seo-pack', 'updraftplus', 'redirection',
  'w3-total-cache', 'wp-super-cache', 'duplicate-post', 'http-authentication', 'shibboleth', 'xrds-simple',
];
const REQUIRED_THEMES = [
  'twentytwentyone', 'twentytwentytwo', 'twentytwentythree', 'twentytwentyfour', 'twentytwentyfive',
  'astra', 'generatepress', 'kadence', 'hello-elementor', 'oceanwp',
];

describe('emulator dataset', () => {
  it('holds at least 20,000 plugins and 2,000 themes', () => {
    assert.ok(datasetSize('plugin') >= 20000);
    assert.ok(datasetSize('theme') >= 2000);
    assert.equal(slugState('plugin', syntheticSlug('plugin', 20000)), 'benchmarked');
    assert.equal(slugState('plugin', syntheticSlug('plugin', 20001)), 'not-in-dataset');
    assert.equal(slugState('theme', syntheticSlug('theme', 2000)), 'benchmarked');
    assert.equal(slugState('theme', syntheticSlug('theme', 2001)), 'not-in-dataset');
  });

  it('knows the well-known real slugs', () => {
    for (const s of REQUIRED_PLUGINS) assert.ok(recordFor('plugin', s), s);
    for (const s of REQUIRED_THEMES) assert.ok(recordFor('theme', s), s);
    assert.equal(recordFor('theme', 'akismet'), undefined, 'kinds are separate');
    assert.equal(recordFor('plugin', 'astra'), undefined);
  });

  it('hands out hundreds of distinct known slugs, filterable by state', () => {
    const any = knownSlugs('plugin', 500);
    assert.equal(new Set(any).size, 500);
    assert.deepEqual(any.slice(0, REAL_SLUGS.plugin.length), [...REAL_SLUGS.plugin]);
    for (const s of knownSlugs('theme', 300, 'benchmarked')) assert.equal(slugState('theme', s), 'benchmarked');
    for (const s of knownSlugs('plugin', 50, 'not-benchmarked')) assert.equal(slugState('plugin', s), 'not-benchmarked');
    for (const s of unknownSlugs('plugin', 20)) assert.equal(recordFor('plugin', s), undefined);
    assert.throws(() => knownSlugs('theme', 100000), RangeError);
  });

  it('marks every 17th synthetic slug and the obsolete real ones as known but not benchmarked', () => {
    const r = recordFor('plugin', syntheticSlug('plugin', NOT_BENCHMARKED_EVERY * 3))!;
    assert.deepEqual(
      { b: r.benchmarked, at: r.benchmarked_at, s: r.speed_score, c: r.contexts },
      { b: false, at: null, s: null, c: { activation: null, homepage: null, admin: null } },
    );
    assert.equal(typeof r.metadata.active_installs, 'number');
    for (const s of ['http-authentication', 'shibboleth', 'xrds-simple']) assert.equal(slugState('plugin', s), 'not-benchmarked');
    assert.equal(slugState('plugin', 'akismet'), 'benchmarked');
  });

  it('has admin-only items (homepage null) and front-end-only items (admin null)', () => {
    const adminOnly = recordFor('plugin', syntheticSlug('plugin', HOMEPAGE_NULL_EVERY))!;
    assert.equal(adminOnly.contexts.homepage, null);
    assert.notEqual(adminOnly.contexts.admin, null);
    assert.notEqual(adminOnly.contexts.activation, null);
    const frontOnly = recordFor('plugin', syntheticSlug('plugin', ADMIN_NULL_EVERY))!;
    assert.equal(frontOnly.contexts.admin, null);
    assert.notEqual(frontOnly.contexts.homepage, null);
    assert.equal(recordFor('plugin', 'classic-editor')!.contexts.homepage, null);
  });

  it('grades follow the activation values on a log scale (A ⇒ ≤ 8 MB and ≤ 4 queries)', () => {
    const seen = new Set<string>();
    const slugs = [...knownSlugs('plugin', 4000, 'benchmarked'), ...knownSlugs('theme', 1800, 'benchmarked')];
    for (const slug of slugs) {
      const kind = slug.includes('theme') || REAL_SLUGS.theme.includes(slug) ? 'theme' : 'plugin';
      const r = recordFor(kind, slug)!;
      const a = r.contexts.activation!;
      assert.ok(r.speed_score, slug);
      assert.deepEqual(r.speed_score, gradeFor(a.memory_delta_kb, a.queries_delta), slug);
      assert.ok(Number.isInteger(a.queries_delta) && a.queries_delta >= 0);
      assert.ok(a.memory_delta_kb > 0);
      assert.ok(r.speed_score.numeric >= 0 && r.speed_score.numeric <= 100);
      if (r.speed_score.grade === 'A' || r.speed_score.grade === 'A+') {
        assert.ok(a.memory_delta_kb <= 8192 && a.queries_delta <= 4, slug);
      } else {
        assert.ok(a.memory_delta_kb > 8192 || a.queries_delta > 4, slug);
      }
      assert.match(r.benchmarked_at!, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      seen.add(r.speed_score.grade);
    }
    assert.deepEqual([...seen].sort(), [...GRADES].sort(), 'every grade occurs');
  });

  it('numeric score falls as the grade worsens', () => {
    const pts: [number, number][] = [[500, 0], [4000, 1], [8192, 4], [12000, 6], [30000, 10], [60000, 20], [120000, 40], [900000, 300]];
    const scores = pts.map(([m, q]) => gradeFor(m, q));
    for (let i = 1; i < scores.length; i++) assert.ok(scores[i].numeric <= scores[i - 1].numeric);
    assert.deepEqual(scores.map((s) => s.grade), ['A+', 'A', 'A', 'B', 'C', 'D', 'E', 'F']);
    assert.equal(activationBadness(8192, 4), 0);
  });

  it('is deterministic per seed and varies with the seed', () => {
    assert.deepEqual(recordFor('plugin', 'woocommerce'), recordFor('plugin', 'woocommerce'));
    assert.deepEqual(recordFor('plugin', 'synthetic-plugin-00042', { seed: 7 }), recordFor('plugin', 'synthetic-plugin-00042', { seed: 7 }));
    assert.notDeepEqual(recordFor('plugin', 'synthetic-plugin-00042', { seed: 7 }), recordFor('plugin', 'synthetic-plugin-00042', { seed: 8 }));
    assert.equal(recordFor('plugin', 'woocommerce', { seed: 8 })!.name, 'WooCommerce');
  });

  it('refuses anything that is not a clean slug', () => {
    for (const s of ['', 'Akismet', '../akismet', 'akismet/', 'a--b', '-akismet', 'akismet ', 'akismet\u0000', 'x'.repeat(201), '__proto__', 'constructor', 'toString']) {
      assert.equal(recordFor('plugin', s), undefined, JSON.stringify(s));
    }
  });
});
