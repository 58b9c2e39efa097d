// Screenshots of Measure Locally in the real VS Code (code-server + headless Chromium), in a dark, a light and a
// high-contrast theme: palette → "WP Bench: Measure Locally" → pick LayerSlider → Continue → the tree and the hover.
// Runs the extension from this folder (dist/ built; node_modules holds the SQLite integration the engine uses), so
// the title bar says "Extension Development Host".
//   node test/ui/measure-shots.mjs        (screenshots in docs/screenshots/, or WPBENCH_SCREENSHOT_DIR)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { copyFixture, startEmulator } from '../integration/run.mjs';
import { SHOTS, chosenThemes, openSampleWorkbench, comparePlugins, measureFromPalette, palette, quickOpen, setUpSample, showHover, widenSideBar } from './drive.mjs';


fs.mkdirSync(SHOTS, { recursive: true });
const emulator = await startEmulator();
try {
  for (const { suffix, theme, workbenchClass } of chosenThemes()) {
    const workspace = copyFixture();
    const wb = await openSampleWorkbench(workspace, emulator.url);
    const { page } = wb;
    try {
      await setUpSample(page, { theme, workbenchClass }, 'LayerSlider WP');
      await measureFromPalette(page, 'WP Bench: Measure Locally', 'LayerSlider WP');
      const row = page.locator('.pane-body .monaco-list-row', { hasText: /LayerSlider WP.*≈[A-F] local/ }).first();
      await row.waitFor({ timeout: 90_000 });
      await palette(page, 'Notifications: Clear All Notifications');
      // A wider side bar, so the descriptions read in full.
      await widenSideBar(page, 230);
      await row.hover();
      await page.locator('.monaco-hover:visible, .custom-hover:visible', { hasText: 'Measured locally' }).first().waitFor({ timeout: 15_000 }).catch(() => undefined);
      await page.screenshot({ path: path.join(SHOTS, `measure-tree${suffix}.png`) });

      // The tree's tooltip away first: the editor's own hover is the picture.
      await page.mouse.move(1000, 700);
      await page.keyboard.press('Escape');
      await page.locator('.monaco-hover:visible', { hasText: 'Measured locally' }).waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
      await quickOpen(page, 'layerslider.php');
      const token = page.locator('.view-line span', { hasText: 'LayerSlider WP' }).first();
      await token.waitFor({ timeout: 15_000 });
      const hover = await showHover(page, token, 'Measured locally');
      assert.match(await hover.innerText(), /measured locally, PHP \d+\.\d+, WordPress/);
      // The hover fades in: the picture once its animation has finished (high contrast showed it half drawn).
      await page.waitForFunction(() => document.getAnimations().filter((a) => a.effect?.target?.closest?.('.monaco-hover')).every((a) => a.playState === 'finished'));
      await page.screenshot({ path: path.join(SHOTS, `measure-hover${suffix}.png`) });
      console.log(`  ✔ ${theme}: measure-tree${suffix}.png, measure-hover${suffix}.png`);

      if (suffix === '') {
        // Compare: the local measurement beside an API benchmark, marked, with the note under the table.
        await page.mouse.move(1000, 700);
        await page.keyboard.press('Escape');
        await palette(page, 'View: Close All Editors');
        const frame = await comparePlugins(page, ['LayerSlider', 'woocommerce']);
        assert.match(await frame.locator('table.compare thead').innerText(), /measured locally/);
        assert.match(await frame.locator('table.compare').innerText(), /≈[A-F] local/);
        await page.screenshot({ path: path.join(SHOTS, 'measure-compare.png') });
        console.log('  ✔ measure-compare.png');
      }
    } catch (err) {
      await page.screenshot({ path: path.join(SHOTS, `measure-failed${suffix}.png`) }).catch(() => undefined);
      throw err;
    } finally {
      await wb.close();
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  }
} finally {
  emulator.stop();
}
