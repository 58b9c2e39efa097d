// Builds a wp-content tree full of edge cases, shared by the unit tests and the WordPress comparison.
//   npx tsx test/wp-compare/edge-fixture.ts <dir>   (writes <dir>/wp-content)
import * as fs from 'fs';
import * as path from 'path';

function put(root: string, rel: string, content: string | Buffer): void {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

const php = (headers: string) => `<?php\n/**\n${headers}\n */\n`;

/** Creates `<dir>/wp-content` and returns its path. */
export function buildEdgeCaseSite(dir: string): string {
  const wc = path.join(dir, 'wp-content');
  const P = (rel: string, c: string | Buffer) => put(wc, 'plugins/' + rel, c);
  const M = (rel: string, c: string | Buffer) => put(wc, 'mu-plugins/' + rel, c);
  const T = (rel: string, c: string | Buffer) => put(wc, 'themes/' + rel, c);

  // --- plugins ---
  P('index.php', '<?php\n// Silence is golden.\n');
  P('hello.php', php(' * Plugin Name: Hello Dolly\n * Version: 1.7.2'));
  P('single-file.php', php(' * Plugin Name: Single File\n * Version: 0.1'));
  P('.hidden.php', php(' * Plugin Name: Hidden file'));
  P('.hidden-folder/hidden-folder.php', php(' * Plugin Name: Hidden folder'));
  P('Upper.PHP', php(' * Plugin Name: Upper extension'));
  P('crlf-plugin/crlf-plugin.php', php(' * Plugin Name: CRLF Plugin\n * Version: 2.0').replace(/\n/g, '\r\n'));
  P('cr-only/cr-only.php', php(' * Plugin Name: CR Only\n * Version: 3.0').replace(/\n/g, '\r'));
  P('bom-plugin/bom-plugin.php', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(php(' * Plugin Name: BOM Plugin\n * Version: 1'))]));
  P('bom-line1/bom-line1.php', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<?php /* Plugin Name: BOM Line One */\n')]));
  P('spaced-colon/spaced-colon.php', php(' * Plugin Name : Spaced Colon'));
  P('late-header/late-header.php', '<?php\n' + '// padding\n'.repeat(800) + php(' * Plugin Name: Too Late'));
  {
    // The 8 KiB cut falls inside the value: WordPress sees "Cut Off Na".
    const prefix = '<?php\n/*\n';
    const line = ' * Plugin Name: Cut Off Name Here\n';
    const pad = 8192 - prefix.length - ' * Plugin Name: Cut Off Na'.length;
    P('cut-off/cut-off.php', prefix + '/'.repeat(pad - 1) + '\n' + line);
  }
  P('deep/deep.php', '<?php\n// no header here\n');
  P('deep/includes/deeper.php', php(' * Plugin Name: Too Deep'));
  P('multi/zeta.php', php(' * Plugin Name: Multi Zeta\n * Version: 9'));
  P('multi/multi.php', php(' * Plugin Name: Multi Main\n * Version: 1.1'));
  P('multi/alpha.php', php(' * Plugin Name: Multi Alpha'));
  P('no-version/no-version.php', php(' * Plugin Name: No Version'));
  P('same-line/same-line.php', '<?php /* Plugin Name: Same Line */ ?>\n');
  P('php-close/php-close.php', '<?php\n# Plugin Name: Hash Comment ?> <?php echo 1;\n');
  P('shouty/shouty.php', php(' * PLUGIN NAME: Shouty\n * VERSION: 5'));
  P('at-sign/at-sign.php', '<?php\n@Plugin Name: At Sign\n');
  P('tabbed/tabbed.php', '<?php\n/*\n\t*\tPlugin Name:\tTabbed\t\n*/\n');
  P('zero-name/zero-name.php', php(' * Plugin Name: 0'));
  P('empty-first/empty-first.php', php(' * Plugin Name:\n * Plugin Name: Second One'));
  P('latin1/latin1.php', Buffer.concat([Buffer.from('<?php\n/*\n * Plugin Name: Caf'), Buffer.from([0xe9]), Buffer.from('\n */\n')]));
  P('utf8-name/utf8-name.php', php(' * Plugin Name: Café Ünïcode\n * Version: 1.0'));
  P('utf16/utf16.php', Buffer.from('\ufeff<?php\n/*\n * Plugin Name: UTF16\n */\n', 'utf16le'));
  P('binary/binary.php', Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256)));
  P('My_Plugin/My_Plugin.php', php(' * Plugin Name: Bad Slug Plugin'));
  P('folder.php/folder.php', php(' * Plugin Name: Folder Named Like A File'));
  P('fork/fork.php', php(' * Plugin Name: Fork\n * Update URI: https://example.com/fork'));
  P('wporg-uri/wporg-uri.php', php(' * Plugin Name: Wporg URI\n * Update URI: https://wordpress.org/plugins/wporg-uri/'));
  P('readme-only/readme.txt', 'Plugin Name: Not PHP\n');
  // A plugin folder outside, linked in.
  put(dir, 'external/linked-plugin/linked-plugin.php', php(' * Plugin Name: Linked Plugin\n * Version: 4.2'));
  fs.symlinkSync(path.join(dir, 'external/linked-plugin'), path.join(wc, 'plugins/linked-plugin'));

  // --- mu-plugins ---
  M('loader.php', php(' * Plugin Name: MU Loader\n * Version: 1.0'));
  M('noheader.php', '<?php\nadd_action("init", "__return_true");\n');
  M('index.php', '<?php // Silence is golden.');
  M('sub/inner.php', php(' * Plugin Name: MU Inner')); // loaded by a loader: Bedrock's autoloader, below
  M('bedrock-autoloader.php', php(' * Plugin Name: Bedrock Autoloader\n * Version: 1.0.3') + 'namespace Roots\\Bedrock;\n\nif (class_exists(Autoloader::class)) {\n    new Autoloader();\n}\n');
  M('lib/helpers.php', '<?php\nfunction acme_helper() {}\n'); // a library sub-folder: no header, not a plugin
  M('.dot-mu.php', php(' * Plugin Name: Dot MU'));
  M('readme.txt', 'Plugin Name: nope');

  // --- themes ---
  const css = (h: string) => `/*\n${h}\n*/\n`;
  T('classic/style.css', css('Theme Name: Classic\nVersion: 1.0'));
  T('classic/index.php', '<?php\n');
  T('block/style.css', css('Theme Name: Block\nVersion: 2.0'));
  T('block/templates/index.html', '<!-- wp:post-content /-->\n');
  T('noname/style.css', css('Description: a theme without a name'));
  T('noname/index.php', '<?php\n');
  T('child/style.css', css('Theme Name: Child\nTemplate: classic\nVersion: 0.5'));
  T('orphan-child/style.css', css('Theme Name: Orphan Child\nTemplate: missing-parent'));
  T('group/nested-a/style.css', css('Theme Name: Nested A\nVersion: 1'));
  T('group/nested-a/index.php', '<?php\n');
  T('group/nested-b/style.css', css('Theme Name: Nested B').replace(/\n/g, '\r\n'));
  T('group/nested-b/index.php', '<?php\n');
  T('.hidden-theme/style.css', css('Theme Name: Hidden'));
  T('CVS/style.css', css('Theme Name: CVS'));
  T('empty-folder/readme.txt', 'nothing');
  T('group2/.dotnested/style.css', css('Theme Name: Dot Nested'));
  T('group2/.dotnested/index.php', '<?php\n');
  T('crlf-theme/style.css', css('Theme Name: CRLF Theme\nVersion: 3.1').replace(/\n/g, '\r\n'));
  T('crlf-theme/index.php', '<?php\n');
  return wc;
}

if (require.main === module) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: tsx edge-fixture.ts <dir>');
  console.log(buildEdgeCaseSite(dir));
}
