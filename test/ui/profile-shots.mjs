// Screenshots of Profile Locally in the real VS Code (code-server + headless Chromium), in a dark, a light and a
// high-contrast theme: the sample site's own plugin (acme-shop-tweaks) gets a function doing 15 ms of work on every
// request; palette → "WP Bench: Profile Locally" → pick it → Continue → its file with the CodeLenses and the tree
// with its functions. Needs php with php-excimer (npm run test:measure installs it).
//   node test/ui/profile-shots.mjs        (screenshots in docs/screenshots/, or WPBENCH_SCREENSHOT_DIR)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openWorkbench, VSCODE_TARGETS } from '../integration/harness/runInCodeServer.mjs';
import { copyFixture, startEmulator } from '../integration/run.mjs';
import { palette, pickTheme, quickOpen } from './drive.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SHOTS = process.env.WPBENCH_SCREENSHOT_DIR ? path.resolve(process.env.WPBENCH_SCREENSHOT_DIR) : path.join(ROOT, 'docs', 'screenshots');
const PRO_KEY = 'wpb_demo_pro_3b9d6f2a8e1c4075';
const THEMES = [
  { suffix: '', theme: 'Dark Modern', workbenchClass: 'vs-dark' },
  { suffix: '-light', theme: 'Light Modern', workbenchClass: 'vs' },
  { suffix: '-hc', theme: 'Dark High Contrast', workbenchClass: 'hc-black' },
];
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
  for (const { suffix, theme, workbenchClass } of THEMES) {
    const workspace = copyFixture();
    fs.appendFileSync(path.join(workspace, 'wp-content/plugins/acme-shop-tweaks/acme-shop-tweaks.php'), HOT);
    const wb = await openWorkbench({
      codeServerDir: VSCODE_TARGETS[0].dir,
      workspace,
      extensionDevelopmentPath: ROOT,
      viewport: { width: 1400, height: 860 },
      settings: { 'wpBench.apiUrl': emulator.url, 'editor.hover.delay': 150, 'workbench.tips.enabled': false, 'window.commandCenter': false },
    });
    const { page } = wb;
    try {
      await page.locator('.statusbar-item', { hasText: 'Set up WP Bench' }).waitFor({ timeout: 60_000 });
      await pickTheme(page, theme);
      await page.locator(`.monaco-workbench.${workbenchClass}`).waitFor({ timeout: 15_000 });
      await palette(page, 'WP Bench: Set API Key');
      const key = page.locator('.quick-input-widget input[type="password"]');
      await key.waitFor({ state: 'visible' });
      await key.fill(PRO_KEY);
      await page.keyboard.press('Enter');
      await key.waitFor({ state: 'hidden' });
      await page.locator('.activitybar .action-item a[aria-label^="WP Bench"]').click();
      await page.locator('.monaco-list-row', { hasText: 'Acme Shop Tweaks' }).first().waitFor({ timeout: 30_000 });

      await palette(page, 'WP Bench: Profile Locally');
      const pick = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Acme Shop Tweaks' }).first();
      await pick.waitFor({ timeout: 15_000 });
      await pick.click();
      const toast = page.locator('.notification-toast', { hasText: 'runs the PHP of Acme Shop Tweaks' });
      await toast.waitFor({ timeout: 15_000 });
      await toast.locator('a.monaco-button', { hasText: 'Continue' }).click();
      const row = page.locator('.pane-body .monaco-list-row', { hasText: /Acme Shop Tweaks.*≈[A-F] local/ }).first();
      await row.waitFor({ timeout: 120_000 });
      await palette(page, 'Notifications: Clear All Notifications');
      // A wider side bar, so the descriptions read in full; the component expanded to its functions.
      const box = await page.locator('.part.sidebar').boundingBox();
      await page.mouse.move(box.x + box.width + 1, 400);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width + 200, 400, { steps: 5 });
      await page.mouse.up();
      await row.locator('.monaco-tl-twistie').click();
      await page.locator('.pane-body .monaco-list-row', { hasText: 'acme_shop_tweaks_prices' }).first().waitFor({ timeout: 15_000 });

      await quickOpen(page, 'acme-shop-tweaks.php');
      const lens = page.locator('.contentWidgets .codelens-decoration, .monaco-editor .codelens-decoration', { hasText: /Homepage \+\d/ }).first();
      await lens.waitFor({ timeout: 30_000 });
      assert.match(await lens.innerText(), /Activation \+[\d.]+ ms · Homepage \+[\d.]+ ms · Admin \+[\d.]+ ms/);
      await page.mouse.move(1000, 780);
      await page.screenshot({ path: path.join(SHOTS, `profile-lens${suffix}.png`) });
      console.log(`  ✔ ${theme}: profile-lens${suffix}.png`);
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
