// Screenshots of Profile Locally in the real VS Code (code-server + headless Chromium), in a dark, a light and a
// high-contrast theme: the sample site's own plugin (acme-shop-tweaks) gets a function doing 15 ms of work on every
// request; palette → "WP Bench: Profile Locally" → pick it → Continue → its file with the CodeLenses and the tree
// with its functions; a click on a CodeLens → the flame graph (keyboard, zoom, contexts, a click opening the line).
// Needs php with php-excimer (npm run test:measure installs it). --themes dark: the dark theme only (npm run test:ui).
//   node test/ui/profile-shots.mjs        (screenshots in docs/screenshots/, or WPBENCH_SCREENSHOT_DIR)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { copyFixture, startEmulator } from '../integration/run.mjs';
import { SHOTS, chosenThemes, openSampleWorkbench, measureFromPalette, palette, quickOpen, setUpSample, widenSideBar } from './drive.mjs';

const HOT = `
function acme_shop_tweaks_prices() {
\t$end = hrtime( true ) + 15000000; // 15 ms of work on every request
\twhile ( hrtime( true ) < $end ) {}
}
add_action( 'init', 'acme_shop_tweaks_prices' );
`;

fs.mkdirSync(SHOTS, { recursive: true });
const emulator = await startEmulator();
try {
  for (const { suffix, theme, workbenchClass } of chosenThemes()) {
    const workspace = copyFixture();
    fs.appendFileSync(path.join(workspace, 'wp-content/plugins/acme-shop-tweaks/acme-shop-tweaks.php'), HOT);
    const wb = await openSampleWorkbench(workspace, emulator.url);
    const { page } = wb;
    try {
      await setUpSample(page, { theme, workbenchClass }, 'Acme Shop Tweaks');
      await measureFromPalette(page, 'WP Bench: Profile Locally', 'Acme Shop Tweaks');
      const row = page.locator('.pane-body .monaco-list-row', { hasText: /Acme Shop Tweaks.*≈[A-F] local/ }).first();
      await row.waitFor({ timeout: 120_000 });
      await palette(page, 'Notifications: Clear All Notifications');
      // A wider side bar, so the descriptions read in full; the component expanded to its functions.
      await widenSideBar(page, 200);
      await row.locator('.monaco-tl-twistie').click();
      await page.locator('.pane-body .monaco-list-row', { hasText: 'acme_shop_tweaks_prices' }).first().waitFor({ timeout: 15_000 });

      await quickOpen(page, 'acme-shop-tweaks.php');
      const lens = page.locator('.contentWidgets .codelens-decoration, .monaco-editor .codelens-decoration', { hasText: /Homepage \+\d/ }).first();
      await lens.waitFor({ timeout: 30_000 });
      assert.match(await lens.innerText(), /Activation \+[\d.]+ ms · Homepage \+[\d.]+ ms · Admin \+[\d.]+ ms/);
      await page.mouse.move(1000, 780);
      await page.screenshot({ path: path.join(SHOTS, `profile-lens${suffix}.png`) });
      console.log(`  ✔ ${theme}: profile-lens${suffix}.png`);

      // A click on the CodeLens: the flame graph of the context where the function spends the most, the function selected.
      await lens.locator('a', { hasText: 'Homepage' }).first().click();
      const flame = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
      const hot = flame.locator('.frame.comp', { hasText: 'acme_shop_tweaks_prices' }).first();
      await hot.waitFor({ timeout: 15_000 });
      assert.ok((await flame.locator('.frame.core').count()) >= 5, 'WordPress’s frames drawn too');
      await page.mouse.move(1000, 840);
      assert.match(await flame.locator('#wpb-detail').innerText(), /^acme_shop_tweaks_prices · acme-shop-tweaks\.php \(line \d+\): Enter opens it — [\d.]+ ms per request, [\d.]+ % of the sampled time$/);
      assert.equal(await flame.locator('.frame.selected').count(), 1);
      assert.match(await flame.locator('.frame.selected').innerText(), /acme_shop_tweaks_prices/);
      await page.screenshot({ path: path.join(SHOTS, `profile-flame${suffix}.png`) });
      console.log(`  ✔ ${theme}: profile-flame${suffix}.png`);

      if (suffix === '') {
        // Keyboard: up to its caller (WordPress's), Z zooms into it, Escape zooms out, down comes back.
        await flame.locator('.frame.selected').focus();
        await page.keyboard.press('ArrowUp');
        const caller = await flame.locator('.frame.selected').innerText();
        assert.ok(!/acme_shop_tweaks_prices/.test(caller), caller);
        assert.equal(await flame.locator('.frame.selected.core').count(), 1, 'the caller is WordPress’s');
        await page.keyboard.press('z');
        await flame.locator('#wpb-zoom', { hasText: `Zoomed into ${caller}` }).waitFor();
        assert.equal(await flame.locator('#wpb-reset').isDisabled(), false);
        await page.keyboard.press('Escape');
        await flame.locator('#wpb-reset:disabled').waitFor({ state: 'attached' });
        assert.equal(await flame.locator('#wpb-zoom').innerText(), '');
        // Another context: the buttons switch the tree.
        await flame.locator('button[data-context="admin"]').click();
        await flame.locator('button[data-context="admin"][aria-pressed="true"]').waitFor();
        // A click on the component's frame opens its line.
        await flame.locator('.frame.comp', { hasText: 'acme_shop_tweaks_prices' }).first().click();
        await page.locator('.tab.active', { hasText: 'acme-shop-tweaks.php' }).waitFor({ timeout: 15_000 });
        const defLine = fs.readFileSync(path.join(workspace, 'wp-content/plugins/acme-shop-tweaks/acme-shop-tweaks.php'), 'utf8').split('\n').findIndex((l) => l.startsWith('function acme_shop_tweaks_prices')) + 1;
        await page.locator('.statusbar-item', { hasText: new RegExp(`Ln ${defLine}, Col 1`) }).waitFor({ timeout: 15_000 });
        console.log('  ✔ flame graph: keyboard, zoom, contexts, a click opens the line');
      }
    } catch (err) {
      await page.screenshot({ path: path.join(SHOTS, `profile-failed${suffix}.png`) }).catch(() => undefined);
      throw err;
    } finally {
      await wb.close();
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  }
} finally {
  emulator.stop();
}
