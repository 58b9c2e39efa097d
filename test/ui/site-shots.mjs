// Screenshots of Measure Site Locally in the real VS Code (code-server + headless Chromium), in a dark, a light and a
// high-contrast theme: palette → "WP Bench: Measure Site Locally" → Continue → the tree's site total as it runs
// beside the sum of the parts and each component's "in this site · alone" (with the site total's tooltip), then the
// site report's "The site as it runs". The sample site's acme-shop-tweaks gets 15 ms of work on every request first
// (in the copy), so the picture has something to show.
//   node test/ui/site-shots.mjs [--themes dark]   (screenshots in docs/screenshots/, or WPBENCH_SCREENSHOT_DIR)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { copyFixture, startEmulator } from '../integration/run.mjs';
import { SHOTS, chosenThemes, openSampleWorkbench, palette, setUpSample, widenSideBar } from './drive.mjs';

const BUSY = "\nfunction acme_shop_tweaks_busy() {\n\t$end = hrtime( true ) + 15000000;\n\twhile ( hrtime( true ) < $end ) {}\n}\nadd_action( 'init', 'acme_shop_tweaks_busy' );\n";

fs.mkdirSync(SHOTS, { recursive: true });
const emulator = await startEmulator();
try {
  for (const { suffix, theme, workbenchClass } of chosenThemes()) {
    const workspace = copyFixture();
    fs.appendFileSync(path.join(workspace, 'wp-content/plugins/acme-shop-tweaks/acme-shop-tweaks.php'), BUSY);
    const wb = await openSampleWorkbench(workspace, emulator.url);
    const { page } = wb;
    try {
      await setUpSample(page, { theme, workbenchClass }, 'Acme Shop Tweaks');
      await palette(page, 'WP Bench: Measure Site Locally');
      const toast = page.locator('.notification-toast', { hasText: 'runs the PHP of every plugin and theme' });
      await toast.waitFor({ timeout: 15_000 });
      await toast.locator('a.monaco-button', { hasText: 'Continue' }).click();
      const total = page.locator('.pane-body .monaco-list-row', { hasText: /Site total.*as it runs/ }).first();
      await total.waitFor({ timeout: 120_000 });
      await page.locator('.pane-body .monaco-list-row', { hasText: /Acme Shop Tweaks.*in this site/ }).first().waitFor({ timeout: 15_000 });
      await palette(page, 'Notifications: Clear All Notifications');
      await widenSideBar(page, 520);
      await total.hover();
      const tip = page.locator('.monaco-hover:visible, .custom-hover:visible', { hasText: 'The site as it runs' }).first();
      await tip.waitFor({ timeout: 15_000 }).catch(() => undefined);
      await page.screenshot({ path: path.join(SHOTS, `site-tree${suffix}.png`) });

      await page.mouse.move(1300, 800);
      await page.keyboard.press('Escape');
      await palette(page, 'WP Bench: Show Site Report');
      const frame = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
      await frame.locator('h2', { hasText: 'The site as it runs' }).waitFor({ timeout: 15_000 });
      assert.match(await frame.locator('section.as-it-runs').innerText(), /Acme Shop Tweaks/);
      await page.screenshot({ path: path.join(SHOTS, `site-report-as-it-runs${suffix}.png`) });
      console.log(`  ✔ ${theme}: site-tree${suffix}.png, site-report-as-it-runs${suffix}.png`);
    } catch (err) {
      await page.screenshot({ path: path.join(SHOTS, `site-failed${suffix}.png`) }).catch(() => undefined);
      throw err;
    } finally {
      await wb.close();
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  }
} finally {
  emulator.stop();
}
