import * as assert from 'node:assert/strict';
import { parseComposerJson, parseComposerLock, parseWpEnv, wpEnvSourceSlug } from '../../../src/core/scan';

const composerJson = `{
  "name": "roots/bedrock",
  "require": {
    "php": ">=8.1",
    "wpackagist-plugin/akismet": "^5.3",
    "wp-plugin/query-monitor": "^3.16",
    "wpackagist-theme/twentytwentyfour": "*",
    "roots/wordpress": "^6.5"
  },
  "require-dev": {
    "wp-theme/twentytwentyfive": "*",
    "wpackagist-plugin/Bad_Slug!": "*"
  },
  "extra": {
    "installer-paths": {
      "web/app/mu-plugins/{$name}/": ["type:wordpress-muplugin"],
      "web/app/plugins/{$name}/": ["type:wordpress-plugin"],
      "web/app/themes/{$name}/": ["type:wordpress-theme"],
      "custom/{$name}/": ["wpackagist-plugin/akismet"],
      "vendored/{$name}/": ["vendor:wpackagist-theme"]
    }
  }
}`;

describe('scan: composer.json / composer.lock', () => {
  it('finds WPackagist and WP Packages names in require and require-dev with exact positions', () => {
    const r = parseComposerJson(composerJson, 'composer.json');
    const got = r.components.map((c) => [c.kind, c.slug, c.locations[0].line, c.locations[0].column, c.locations[0].length]);
    assert.deepEqual(got, [
      ['plugin', 'akismet', 5, 6, 25],
      ['plugin', 'query-monitor', 6, 6, 23],
      ['theme', 'twentytwentyfour', 7, 6, 33],
      ['theme', 'twentytwentyfive', 11, 6, 25],
    ]);
    assert.ok(r.components.every((c) => c.version === null && c.locations[0].source === 'composer.json'));
    // The column points at the first character inside the quotes.
    const line5 = composerJson.split('\n')[4];
    assert.equal(line5.slice(5, 5 + 25), 'wpackagist-plugin/akismet');
  });
  it('reports an invalid slug as a problem with the slug, never as a component', () => {
    const r = parseComposerJson(composerJson, 'composer.json');
    assert.equal(r.problems.length, 1);
    assert.equal(r.problems[0].slug, 'bad_slug!');
    assert.equal(r.problems[0].line, 12);
    assert.equal(r.problems[0].column, 6);
  });
  it('reads extra.installer-paths with roles', () => {
    const r = parseComposerJson(composerJson, 'composer.json');
    assert.deepEqual(
      r.installerPaths.map((p) => [p.dir, p.role]),
      [
        ['web/app/mu-plugins', 'mu-plugins'],
        ['web/app/plugins', 'plugins'],
        ['web/app/themes', 'themes'],
        ['custom', 'plugins'],
        ['vendored', 'themes'],
      ],
    );
    assert.equal(r.installerPaths[0].line, 16);
  });
  it('reports malformed JSON with a position and goes on', () => {
    const r = parseComposerJson('{\n  "require": {\n    "wpackagist-plugin/akismet": "*",,\n  }\n}', 'a/composer.json');
    assert.ok(r.problems.length >= 1);
    assert.equal(r.problems[0].file, 'a/composer.json');
    assert.equal(r.problems[0].line, 3);
    assert.match(r.problems[0].message, /Invalid JSON/);
    assert.deepEqual(parseComposerJson('', 'x').components, []);
    assert.deepEqual(parseComposerJson('[1,2]', 'x').components, []);
  });
  it('composer.lock: packages and packages-dev with the locked version', () => {
    const lock = JSON.stringify(
      {
        packages: [
          { name: 'wpackagist-plugin/akismet', version: '5.3.1', type: 'wordpress-plugin', dist: { url: 'https://downloads.wordpress.org/plugin/akismet.5.3.1.zip' } },
          { name: 'composer/installers', version: 'v2.2.0' },
        ],
        'packages-dev': [{ name: 'wp-theme/twentytwentyfour', version: '1.2', type: 'wordpress-theme' }],
      },
      null,
      4,
    );
    const r = parseComposerLock(lock, 'composer.lock');
    assert.deepEqual(
      r.components.map((c) => [c.kind, c.slug, c.version, c.locations[0].line, c.locations[0].column, c.locations[0].source]),
      [
        ['plugin', 'akismet', '5.3.1', 4, 22, 'composer.lock'],
        ['theme', 'twentytwentyfour', '1.2', 18, 22, 'composer.lock'],
      ],
    );
  });
});

describe('scan: .wp-env.json', () => {
  it('derives slugs from source strings', () => {
    const cases: [string, string | null][] = [
      ['.', null],
      ['./my-plugin', 'my-plugin'],
      ['../plugins/other/', 'other'],
      ['~/code/theme-x', 'theme-x'],
      ['/abs/path/abs-plugin', 'abs-plugin'],
      ['https://downloads.wordpress.org/plugin/akismet.5.3.zip', 'akismet'],
      ['https://downloads.wordpress.org/theme/twentytwentyfour.zip', 'twentytwentyfour'],
      ['https://example.com/files/my-plugin.1.2.3.zip', 'my-plugin'],
      ['https://example.com/files/tool.zip?token=1', 'tool'],
      ['git+ssh://git@github.com/org/repo-name.git#main', 'repo-name'],
      ['WordPress/gutenberg', 'gutenberg'],
      ['WordPress/gutenberg#trunk', 'gutenberg'],
      ['WordPress/wporg-mu-plugins/mu-plugins/blocks#build', 'blocks'],
    ];
    for (const [src, slug] of cases) assert.equal(wpEnvSourceSlug(src), slug, src);
  });
  it('reads plugins, themes, env overrides and mappings, pointing at the strings', () => {
    const text = `{
  "plugins": [ "./my-plugin", "https://downloads.wordpress.org/plugin/akismet.zip" ],
  "themes": [ "WordPress/twentytwentyfour" ],
  "env": { "tests": { "plugins": [ "./test-helper" ], "mappings": { "wp-content/themes/env-theme": "./x" } } },
  "mappings": { "wp-content/plugins/mapped": "./src", "wp-content/mu-plugins/loader.php": "./l.php", "wp-content/uploads": "./u" }
}`;
    const r = parseWpEnv(text, '.wp-env.json');
    assert.deepEqual(r.problems, []);
    const got = r.components.map((c) => [c.kind, c.slug, c.locations[0].line, c.locations[0].column, c.locations[0].length]);
    assert.deepEqual(got, [
      ['plugin', 'my-plugin', 2, 17, 11],
      ['plugin', 'akismet', 2, 32, 50],
      ['theme', 'twentytwentyfour', 3, 16, 26],
      ['plugin', 'mapped', 5, 18, 25],
      ['plugin', 'loader', 5, 56, 32],
      ['plugin', 'test-helper', 4, 37, 13],
      ['theme', 'env-theme', 4, 70, 27],
    ]);
    // Each location spans exactly the string's text.
    for (const c of r.components) {
      const l = c.locations[0];
      const shown = text.split('\n')[l.line - 1].substr(l.column - 1, l.length);
      assert.ok(shown.includes(c.slug.replace(/-dolly$/, '')), shown);
    }
    assert.ok(r.components.every((c) => c.locations[0].source === 'wp-env'));
  });
  it('reports unusable sources and malformed JSON', () => {
    // A name that is not a wordpress.org slug is listed (and never looked up); one no one can show is refused.
    const weird = parseWpEnv('{ "plugins": [ "https://example.com/Weird Name.zip" ], }', '.wp-env.json');
    assert.deepEqual(weird.components.map((c) => c.slug), ['Weird Name']);
    const r = parseWpEnv('{ "plugins": [ "https://example.com/bad\\u0007name.zip" ] }', '.wp-env.json');
    assert.equal(r.components.length, 0);
    assert.equal(r.problems.length, 1);
    assert.equal(r.problems[0].slug, 'bad\u0007name');
    const bad = parseWpEnv('{ "plugins": [ ', '.wp-env.json');
    assert.match(bad.problems[0].message, /Invalid JSON/);
  });
});

describe('.wp-env.json "." source', () => {
  it('is the folder that holds .wp-env.json (the plugin being developed)', () => {
    const r = parseWpEnv('{ "plugins": ["."], "themes": ["./"] }', '.wp-env.json', { plugin: 'my-plugin', theme: 'my-plugin' });
    assert.deepEqual(r.components.map((c) => `${c.kind}:${c.slug}`), ['plugin:my-plugin', 'theme:my-plugin']);
    assert.deepEqual(r.problems, []);
    assert.equal(parseWpEnv('{ "plugins": ["."] }', '.wp-env.json').problems.length, 1, 'without the folder name it is reported');
  });
});
