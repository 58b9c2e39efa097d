// Screenshots of Measure Locally in the real VS Code (code-server + headless Chromium), in a dark, a light and a
// high-contrast theme: palette → "WP Bench: Measure Locally" → pick LayerSlider → Continue → the tree and the hover.
// Runs the extension from this folder (dist/ built; node_modules holds the SQLite integration the engine uses).
//   node test/ui/measure-shots.mjs        (screenshots in docs/screenshots/, or WPBENCH_SCREENSHOT_DIR)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openWorkbench, VSCODE_TARGETS } from '../integration/harness/runInCodeServer.mjs';
import { copyFixture, startEmulator } from '../integration/run.mjs';
import { palette, quickOpen } from './drive.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SHOTS = process.env.WPBENCH_SCREENSHOT_DIR ? path.resolve(process.env.WPBENCH_SCREENSHOT_DIR) : path.join(ROOT, 'docs', 'screenshots');
const PRO_KEY = 'wpb_demo_pro_3b9d6f2a8e1c4075';
const THEMES = [
  { suffix: '', theme: 'Default Dark Modern' },
  { suffix: '-light', theme: 'Default Light Modern' },
  { suffix: '-hc', theme: 'Default High Contrast' },
];

fs.mkdirSync(SHOTS, { recursive: true });
const emulator = await startEmulator();
try {
  for (const { suffix, theme } of THEMES) {
    const workspace = copyFixture();
    const wb = await openWorkbench({
      codeServerDir: VSCODE_TARGETS[0].dir,
      workspace,
      extensionDevelopmentPath: ROOT,
      viewport: { width: 1400, height: 860 },
      settings: { 'wpBench.apiUrl': emulator.url, 'workbench.colorTheme': theme, 'editor.hover.delay': 150, 'workbench.tips.enabled': false, 'window.commandCenter': false },
    });
    const { page } = wb;
    try {
      await palette(page, 'WP Bench: Set API Key');
      const key = page.locator('.quick-input-widget input[type="password"]');
      await key.waitFor({ state: 'visible' });
      await key.fill(PRO_KEY);
      await page.keyboard.press('Enter');
      await key.waitFor({ state: 'hidden' });
      await page.locator('.activitybar .action-item a[aria-label^="WP Bench"]').click();
      await page.locator('.monaco-list-row', { hasText: 'LayerSlider WP' }).waitFor({ timeout: 30_000 });

      await palette(page, 'WP Bench: Measure Locally');
      const pick = page.locator('.quick-input-list .monaco-list-row', { hasText: 'LayerSlider WP' }).first();
      await pick.waitFor({ timeout: 15_000 });
      await pick.click();
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor({ timeout: 15_000 });
      assert.match(await dialog.innerText(), /runs the PHP of LayerSlider WP in a throwaway WordPress site/);
      if (!suffix) await page.screenshot({ path: path.join(SHOTS, 'measure-consent.png') });
      await dialog.locator('a.monaco-button', { hasText: 'Continue' }).click();
      const row = page.locator('.monaco-list-row', { hasText: /LayerSlider WP.*≈[A-F] local/ });
      await row.waitFor({ timeout: 90_000 });
      await page.mouse.move(700, 820);
      await page.screenshot({ path: path.join(SHOTS, `measure-tree${suffix}.png`) });

      await quickOpen(page, 'layerslider.php');
      const token = page.locator('.view-line span', { hasText: 'LayerSlider WP' }).first();
      await token.waitFor({ timeout: 15_000 });
      await token.hover();
      const hover = page.locator('.monaco-hover:visible', { hasText: 'Measured locally' });
      await hover.waitFor({ timeout: 15_000 });
      assert.match(await hover.innerText(), /measured locally, PHP \d+\.\d+, WordPress/);
      await page.screenshot({ path: path.join(SHOTS, `measure-hover${suffix}.png`) });
      console.log(`  ✔ ${theme}: measure-tree${suffix}.png, measure-hover${suffix}.png`);
    } finally {
      await wb.close();
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  }
} finally {
  emulator.stop();
}
