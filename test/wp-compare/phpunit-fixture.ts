// A site shaped like WordPress's own PHPUnit test data (wordpress-develop tests/phpunit/data/plugins, themedir1 and
// themedir2, mirrored in wp-phpunit/wp-phpunit): the same folder and file names — upper case, spaces, brackets,
// non-Latin letters, group folders, a theme that names itself as parent, a folder without style.css — and the same
// names, versions and templates, with header quirks of those files (upper-case header names, trailing spaces,
// lower-case `template:`, padded values). The files themselves are ours: headers only, no code.
//   npx tsx test/wp-compare/phpunit-fixture.ts <dir>
import * as fs from 'fs';
import * as path from 'path';

function put(root: string, rel: string, content: string): void {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

const css = (lines: string[]) => `/*\n${lines.join('\n')}\n*/\n`;
const php = (lines: string[]) => `<?php\n/*\n${lines.join('\n')}\n */\n`;

/** [folder under themes/, header lines, block theme template folder?] as in themedir1. */
const THEMEDIR1: [string, string[], ('templates' | 'block-templates')?][] = [
  ['block-theme', ['Theme Name: Block Theme', 'Version: 1.0.0', 'Text Domain: block-theme'], 'templates'],
  ['block-theme-child', ['Theme Name: Block Theme Child Theme', 'Template: block-theme', 'Version: 1.0.0', 'Text Domain: block-theme-child']],
  ['block-theme-child-deprecated-path', ['Theme Name: Block Theme Child Deprecated Path', 'Template: block-theme', 'Version: 1.0.0'], 'templates'],
  ['block-theme-child-no-theme-json', ['Theme Name: Block Theme Child with no theme.json', 'Template: block-theme', 'Version: 1.0.0']],
  ['block-theme-child-with-block-style-variations', ['Theme Name: Block Theme Child With Block Style Variations Theme', 'Template: block-theme', 'Version: 1.0.0']],
  ['block-theme-child-with-fluid-layout', ['Theme Name: Block Theme Child Theme With Fluid Layout', 'Template: block-theme', 'Version: 1.0.0']],
  ['block-theme-child-with-fluid-typography', ['Theme Name: Block Theme Child Theme With Fluid Typography', 'Template: block-theme', 'Version: 1.0.0']],
  ['block-theme-child-with-fluid-typography-config', ['Theme Name: Block Theme Child Theme With Fluid Typography Config', 'Template: block-theme', 'Version: 1.0.0']],
  ['block-theme-deprecated-path', ['Theme Name: Block Theme Deprecated Path', 'Version: 1.0.0'], 'block-templates'],
  ['block-theme-non-latin', ['Theme Name: Block Theme Non Latin', 'Version: 0.0.1', 'Text Domain: block-theme']],
  ['block-theme-patterns', ['Theme Name: Block Theme Patterns', 'Template: block-theme', 'Version: 1.0.0']],
  ['block-theme-post-content-default', ['Theme Name: Block Theme Post Content Default', 'Version: 1.0.0'], 'templates'],
  ['block-theme-with-hooked-blocks', ['Theme Name: Block Theme with Hooked Blocks', 'Version: 1.0.0'], 'templates'],
  ['block_theme-[0.4.0]', ['Theme Name: Block Theme [0.4.0]', 'Version: 0.4.0', 'Text Domain: block-theme']],
  ['block_thémé-[0.4.0]', ['Theme Name: Block Thémé [0.4.0]', 'Version: 0.4.0', 'Text Domain: block-theme']],
  ['camelCase', ['Theme Name: camelCase', 'Version: 1.0']],
  // Names itself as Template: WordPress's "theme_child_invalid", no parent. Trailing spaces are trimmed.
  ['child-parent-itself', ['Theme Name: Child and Parent Theme ', 'Template: child-parent-itself ']],
  ['custom-internationalized-theme', ['Theme Name: Custom Internationalized Theme', 'Version: 1.0.0']],
  ['default', ['Theme Name: WordPress Default', 'Version: 1.6']],
  ['default-child-no-theme-json', ['Theme Name: Default Child Theme with no theme.json', 'Template: default', 'Version: 1.0.0']],
  ['empty-fontface-theme', ['Theme Name: Empty `fontFace` in theme.json - no webfonts defined', 'Version: 1.0.0'], 'templates'],
  ['fonts-block-theme', ['Theme Name: Block Theme with defined Typography Fonts', 'Version: 1.0.0'], 'templates'],
  ['internationalized-theme', ['Theme Name: Internationalized Theme', 'Version: 1.0.0']],
  ['page-templates', ['Theme Name: Page Template Theme', 'Version: 0.1']],
  ['page-templates-child', ['Theme Name: Page Template Child Theme', 'Version: 0.1', 'Template: page-templates']],
  ['rest-api', ['Theme Name: REST Theme', 'Version: 1.6', 'Template: default']],
  ['sandbox', ['THEME NAME: Sandbox', 'VERSION: 0.6.1-wpcom']],
  ['stylesheetonly', ['Theme Name: Stylesheet Only', 'Version: 1.0', 'template: sandbox']],
  ['subdir/block_theme-[1.0.0]', ['Theme Name: Block Theme [1.0.0] in subdirectory', 'Version: 0.4.0']],
  ['subdir/theme with spaces', ['Theme Name: Theme with Spaces in the Directory', 'Version: 0.1']],
  ['subdir/theme2', ['Theme Name: My Subdir Theme', 'Version: 0.1']],
  ['theme1', ['Theme Name: My Theme', 'Version: 1.3']],
  ['theme1-dupe', ['Theme Name: My Theme', 'Version: 1.4']],
  ['update-uri-theme', ['Theme Name:  A theme with the Update URI header', 'Version:     6.1', 'Update URI:  http://example.org/update-uri-theme/']],
];

/** Creates `<dir>/wp-content` (data/plugins + themedir1) and `<dir>/themedir2/wp-content`; returns both. */
export function buildPhpunitDataSites(dir: string): { themedir1: string; themedir2: string } {
  const wc = path.join(dir, 'wp-content');
  // data/plugins: single-file plugins (hello.php is Hello Dolly), a folder plugin, files that are not plugins.
  put(wc, 'plugins/hello.php', php([' * Plugin Name: Hello Dolly', ' * Version: 1.7.2']));
  put(wc, 'plugins/internationalized-plugin.php', php([' * Plugin Name: Dummy Plugin', ' * Version: 1.0.0', ' * Text Domain: internationalized-plugin']));
  put(wc, 'plugins/internationalized-plugin-2.php', php([' * Plugin Name: Dummy Plugin 2', ' * Version: 1.0.0']));
  put(wc, 'plugins/custom-internationalized-plugin/custom-internationalized-plugin.php', php([' * Plugin Name: Custom Dummy Plugin', ' * Version: 1.0.0']));
  put(wc, 'plugins/custom-internationalized-plugin/languages/custom-internationalized-plugin-de_DE.po', 'msgid ""\nmsgstr ""\n');
  put(wc, 'plugins/link-manager.json', '{}\n');
  put(wc, 'plugins/create_plugin.php', '<?php\n// A helper of the tests, not a plugin: no header.\n');
  for (const [folder, headers, templates] of THEMEDIR1) {
    put(wc, `themes/${folder}/style.css`, css(headers));
    if (templates) put(wc, `themes/${folder}/${templates}/index.html`, '<!-- wp:post-content /-->\n');
  }
  put(wc, 'themes/camelCase/index.php', '<?php\n');
  // A theme folder without style.css: WordPress lists it only as broken ("Stylesheet is missing").
  fs.mkdirSync(path.join(wc, 'themes', 'broken-theme'), { recursive: true });
  put(wc, 'themes/broken-theme/index.php', '<?php\n');

  // themedir2: a child and a parent that names itself (no grand-parent).
  const wc2 = path.join(dir, 'themedir2', 'wp-content');
  put(wc2, 'themes/test/style.css', css(['Theme Name: Test Theme', 'Version: 1.3', 'Template: test-parent']));
  put(wc2, 'themes/test-parent/style.css', css(['Theme Name: Test Parent Theme', 'Version: 1.3', 'Template: test-parent']));
  return { themedir1: wc, themedir2: wc2 };
}

if (require.main === module) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: tsx test/wp-compare/phpunit-fixture.ts <dir>');
  console.log(buildPhpunitDataSites(path.resolve(dir)));
}
