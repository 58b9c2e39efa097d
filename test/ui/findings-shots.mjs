// Screenshots of a local measurement's findings in the real VS Code (code-server + headless Chromium), in a dark, a
// light and a high-contrast theme: the sample site's own plugin (acme-shop-tweaks) gets a 200 KB autoloaded option
// added on activation and a stylesheet enqueued on every admin screen; palette → "WP Bench: Measure Locally" → pick
// it → Continue → its file: the squiggle at the add_option line, its hover (the evidence, what fixing it saves, the
// fix), and (dark) the quick fixes under Ctrl+. (turn autoload off, measure this change against HEAD).
// --themes dark: the dark theme only (npm run test:ui).
//   node test/ui/findings-shots.mjs        (screenshots in docs/screenshots/, or WPBENCH_SCREENSHOT_DIR)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { copyFixture, startEmulator } from '../integration/run.mjs';
import { SHOTS, chosenThemes, openSampleWorkbench, measureFromPalette, palette, quickOpen, setUpSample } from './drive.mjs';

const DEFECTS = `
/**
 * Prices: the cache of every product's price, built once when the plugin is activated.
 */
function acme_shop_tweaks_price_of( $product_id ) {
	$cache = get_option( 'acme_shop_tweaks_price_cache' );
	return is_string( $cache ) ? substr( $cache, (int) $product_id % 100, 1 ) : '';
}

register_activation_hook( __FILE__, function () {
\t$prices = str_repeat( 'p', 200 * 1024 ); // a cache of every product's price
\tadd_option( 'acme_shop_tweaks_price_cache', $prices );
} );
add_action( 'admin_enqueue_scripts', function () {
\twp_enqueue_style( 'acme-shop-tweaks-admin', plugins_url( 'admin.css', __FILE__ ), array(), '1.4.0' );
} );
`;

fs.mkdirSync(SHOTS, { recursive: true });
const emulator = await startEmulator();
try {
  for (const { suffix, theme, workbenchClass } of chosenThemes()) {
    const workspace = copyFixture();
    const dir = path.join(workspace, 'wp-content/plugins/acme-shop-tweaks');
    fs.appendFileSync(path.join(dir, 'acme-shop-tweaks.php'), DEFECTS);
    fs.writeFileSync(path.join(dir, 'admin.css'), `/* Acme admin */\n${'.acme{color:#333}\n'.repeat(1200)}`);
    const wb = await openSampleWorkbench(workspace, emulator.url);
    const { page } = wb;
    try {
      await setUpSample(page, { theme, workbenchClass }, 'Acme Shop Tweaks');
      await measureFromPalette(page, 'WP Bench: Measure Locally', 'Acme Shop Tweaks');
      await page.locator('.pane-body .monaco-list-row', { hasText: /Acme Shop Tweaks.*≈[A-F] local/ }).first().waitFor({ timeout: 120_000 });
      await palette(page, 'Notifications: Clear All Notifications');
      await quickOpen(page, 'acme-shop-tweaks.php');
      // Go to the line (Ctrl+G): it is at the file's end, below the fold.
      const n = fs.readFileSync(path.join(dir, 'acme-shop-tweaks.php'), 'utf8').split('\n').findIndex((l) => l.includes('acme_shop_tweaks_price_cache')) + 1;
      await page.locator('.monaco-editor .view-lines').first().click();
      await page.keyboard.press('Control+g');
      await page.keyboard.type(String(n));
      await page.keyboard.press('Enter');
      const line = page.locator('.monaco-editor .view-lines .view-line', { has: page.locator('span', { hasText: 'add_option' }) }).locator('span', { hasText: 'acme_shop_tweaks_price_cache' }).first();
      await line.waitFor({ timeout: 30_000 });
      // The squiggle is drawn, then the hover opened over the option's name.
      await page.locator('.squiggly-warning').first().waitFor({ timeout: 30_000 });
      // Hovered again (the mouse moved away first) until the hover shows: the first hover can come before the
      // editor has its diagnostics, and a mouse that does not move raises no new hover. At most 6 tries.
      const hover = page.locator('.monaco-hover', { hasText: 'WP Bench finding' }).first();
      for (let attempt = 1; ; attempt++) {
        await page.mouse.move(5, 5);
        await line.hover();
        if (await hover.waitFor({ timeout: 5_000 }).then(() => true, () => false)) break;
        assert.ok(attempt < 6, 'the finding\'s hover never showed');
      }
      // Taken once its fade-in has ended (mid-animation the code shows through it).
      await hover.evaluate((el) => Promise.all(el.closest('.monaco-hover, .hover-widget, .monaco-editor-hover')?.getAnimations({ subtree: true }).map((a) => a.finished) ?? []).then(() => undefined));
      await page.waitForFunction(() => [...document.querySelectorAll('.monaco-hover')].every((e) => e.getAnimations({ subtree: true }).length === 0 && Number(getComputedStyle(e).opacity) === 1));
      const text = await hover.innerText();
      assert.match(text, /autoloads the option "acme_shop_tweaks_price_cache" \(200 KB\)/);
      assert.match(text, /Fixing it saves, per request: .*Homepage −200 KB memory/);
      await page.screenshot({ path: path.join(SHOTS, `findings-hover${suffix}.png`) });
      console.log(`  ✔ ${theme}: findings-hover${suffix}.png`);

      if (suffix === '') {
        // The quick fixes of the line: Ctrl+. with the cursor on it.
        await page.keyboard.press('Escape');
        await line.click();
        await page.keyboard.press('Control+.');
        const menu = page.locator('.action-widget, .context-view', { hasText: 'turn autoload off' }).first();
        await menu.waitFor({ timeout: 15_000 });
        assert.match(await menu.innerText(), /measure this change against HEAD/);
        await page.screenshot({ path: path.join(SHOTS, 'findings-quickfix.png') });
        console.log(`  ✔ ${theme}: findings-quickfix.png`);
      }
    } catch (err) {
      await page.screenshot({ path: path.join(SHOTS, `findings-failed${suffix}.png`) }).catch(() => undefined);
      throw err;
    } finally {
      await wb.close();
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  }
} finally {
  emulator.stop();
}
