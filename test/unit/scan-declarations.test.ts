// Issue 21, versions and declarations: what the scanner tells about versions, VIP loader calls, mu-plugins
// sub-folders and entries it cannot use. Fixtures are written here, modelled on real sites' files.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ScanResult } from '../../src/core/model';
import { parseWpEnv, scanWorkspace } from '../../src/core/scan';

const pluginPhp = (name: string, extra = '') => `<?php\n/**\n * Plugin Name: ${name}\n${extra} */\n`;
const find = (r: ScanResult, kind: string, slug: string) => r.components.find((c) => c.kind === kind && c.slug === slug);
const keys = (r: ScanResult) => r.components.map((c) => `${c.kind}:${c.slug}`);

describe('scan: versions and declarations (issue 21)', () => {
  let root: string;
  const put = (rel: string, content: string) => {
    const f = path.join(root, rel);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, content);
  };
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'wpbench-decl-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  describe('.wp-env.json theme archives keep their version (8)', () => {
    it('a mapping to a wordpress.org theme zip gives the theme that version, as the themes list does', () => {
      const text = JSON.stringify(
        {
          themes: ['https://downloads.wordpress.org/theme/twentytwentythree.1.5.zip'],
          mappings: {
            'wp-content/themes/twentytwentyfour': 'https://downloads.wordpress.org/theme/twentytwentyfour.1.0.zip',
            'wp-content/plugins/akismet': 'https://downloads.wordpress.org/plugin/akismet.5.3.zip',
            'wp-content/plugins/local': './local',
          },
        },
        null,
        2,
      );
      const r = parseWpEnv(text, '.wp-env.json');
      assert.deepEqual(
        r.components.map((c) => [c.kind, c.slug, c.version]),
        [['theme', 'twentytwentythree', '1.5'], ['theme', 'twentytwentyfour', '1.0'], ['plugin', 'akismet', '5.3'], ['plugin', 'local', null]],
      );
      assert.deepEqual(r.problems, []);
    });
  });

  describe('nothing skipped silently (7)', () => {
    it('a .wp-env.json that @wordpress/env refuses (wrong shapes) is a problem at the entry', () => {
      const bad = [
        ['[1, 2]', 1],
        ['{\n  "plugins": "https://downloads.wordpress.org/plugin/akismet.zip"\n}', 2],
        ['{\n  "themes": [\n    42\n  ]\n}', 3],
        ['{\n  "mappings": ["wp-content/plugins/x"]\n}', 2],
        ['{\n  "env": {\n    "tests": "yes"\n  }\n}', 3],
      ] as const;
      for (const [text, line] of bad) {
        const r = parseWpEnv(text, '.wp-env.json');
        assert.equal(r.problems.length, 1, `${text}: ${JSON.stringify(r.problems)}`);
        assert.equal(r.problems[0].line, line, text);
        assert.match(r.problems[0].message, /@wordpress\/env/);
      }
    });
    it('a malformed .wp-env.json in a workspace is reported with the file', async () => {
      put('.wp-env.json', '{\n  "plugins": { "akismet": true }\n}\n');
      const r = await scanWorkspace(root);
      assert.deepEqual(r.problems.map((p) => [p.file, p.line]), [['.wp-env.json', 2]]);
    });
    it('a plugin folder (or theme folder) that is a symlink to a missing target is a problem', async () => {
      put('wp-content/plugins/real/real.php', pluginPhp('Real'));
      put('wp-content/themes/t/style.css', '/*\nTheme Name: T\n*/');
      fs.symlinkSync(path.join(root, 'gone-plugin'), path.join(root, 'wp-content/plugins/vanished'));
      fs.symlinkSync(path.join(root, 'gone-theme'), path.join(root, 'wp-content/themes/lost'));
      const r = await scanWorkspace(root);
      assert.deepEqual(keys(r), ['plugin:real', 'theme:t']);
      assert.deepEqual(
        r.problems.map((p) => p.file),
        ['wp-content/plugins/vanished', 'wp-content/themes/lost'],
      );
      for (const p of r.problems) assert.match(p.message, /symbolic link/);
    });
  });
});
