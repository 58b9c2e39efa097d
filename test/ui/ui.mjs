// UI test: drives the packaged .vsix in code-server as a person would — palette → "WP Bench: Set API Key" →
// hover a composer.json entry → open the WP Bench view → look up a plugin — asserting what is on screen and
// saving screenshots to docs/screenshots/ (the README shows them; WPBENCH_SCREENSHOT_DIR=dir saves them elsewhere).
//   node test/ui/ui.mjs [--vsix file.vsix]        (npm run test:ui packages first)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import os from 'node:os';
import { openWorkbench, selectedTargets, VSCODE_TARGETS } from '../integration/harness/runInCodeServer.mjs';
import { copyFixture, startEmulator } from '../integration/run.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// The README's screenshots come from the minimum VS Code; runs on the newest save theirs in a temp folder (printed).
function shotsFor(target) {
  if (process.env.WPBENCH_SCREENSHOT_DIR) return path.resolve(process.env.WPBENCH_SCREENSHOT_DIR, target.name);
  return target === VSCODE_TARGETS[0] ? path.join(ROOT, 'docs', 'screenshots') : path.join(os.tmpdir(), `wp-bench-screenshots-${target.name}`);
}
let SHOTS;
const PRO_KEY = 'wpb_demo_pro_3b9d6f2a8e1c4075';

const { values } = parseArgs({ options: { vsix: { type: 'string' } } });
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const vsix = path.resolve(values.vsix ?? path.join(ROOT, `wp-bench-${pkg.version}.vsix`));
assert.ok(fs.existsSync(vsix), `${vsix} not found: run npm run package`);

let passed = 0;
let failed = 0;
async function step(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`  ✔ ${name}`);
  } catch (err) {
    failed++;
    console.log(`  ✗ ${name}\n    ${String(err?.stack ?? err).split('\n').slice(0, 6).join('\n    ')}`);
    throw err;
  }
}

async function palette(page, command) {
  await page.keyboard.press('Control+Shift+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${command}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: command }).first().waitFor();
  await page.keyboard.press('Enter');
}

/**
 * A notification saying `text`. Read in the notification centre, which holds every notification, toast or not:
 * VS Code 1.100 shows ours as toasts, newer versions may put them only behind the bell.
 */
async function notification(page, text, timeout = 15_000) {
  await palette(page, 'Notifications: Show Notifications');
  await page.locator('.notifications-center', { hasText: text }).waitFor({ timeout });
  await palette(page, 'Notifications: Hide Notifications');
}

for (const target of selectedTargets()) {
  SHOTS = shotsFor(target);
  fs.mkdirSync(SHOTS, { recursive: true });
  const emulator = await startEmulator();
  const workspace = copyFixture();
  const wb = await openWorkbench({
    codeServerDir: target.dir,
    workspace,
    vsix,
    viewport: { width: 1400, height: 860 },
    settings: {
      'wpBench.apiUrl': emulator.url,
      'workbench.colorTheme': 'Default Dark Modern',
      'editor.hover.delay': 150,
      'workbench.tips.enabled': false,
      'window.commandCenter': false,
    },
  });
  const { page } = wb;
  console.log(`UI test (packaged .vsix in VS Code ${target.vscode}: code-server ${target.codeServer} + Chromium; screenshots in ${SHOTS})`);
  try {
    await step('the status bar invites to set WP Bench up, quietly', async () => {
      await page.locator('.statusbar-item', { hasText: 'Set up WP Bench' }).waitFor({ timeout: 30_000 });
    });

    await step('the getting-started walkthrough shows its three steps and a picture', async () => {
      await palette(page, 'Welcome: Open Walkthrough');
      const input = page.locator('.quick-input-widget input');
      await input.fill('Get started with WP Bench');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with WP Bench' }).first().waitFor({ timeout: 15_000 });
      await page.keyboard.press('Enter');
      await page.locator('.getting-started-step', { hasText: 'Set the API address' }).first().waitFor({ timeout: 15_000 });
      await page.locator('.getting-started-step', { hasText: 'Open a WordPress site' }).first().waitFor();
      await page.locator('.getting-started-media img, .getting-started-media').first().waitFor();
      await page.screenshot({ path: path.join(SHOTS, 'walkthrough.png') });
      await page.keyboard.press('Control+W');
    });

    await step('palette → "WP Bench: Set API Key" → password box → saved, tier shown', async () => {
      await palette(page, 'WP Bench: Set API Key');
      const input = page.locator('.quick-input-widget input[type="password"]');
      await input.waitFor({ state: 'visible' });
      await input.fill(PRO_KEY);
      await page.keyboard.press('Enter');
      await input.waitFor({ state: 'hidden' });
      await notification(page, 'API key saved');
      await notification(page, 'pro');
    });

    await step('the status bar shows used / limit', async () => {
      const item = page.locator('.statusbar-item', { hasText: '/ 500,000' });
      await item.waitFor({ timeout: 20_000 });
      assert.match(await item.innerText(), /\d+ \/ 500,000/);
      await page.keyboard.press('Escape');
    });

    await step('hovering a composer.json entry shows grade and contexts', async () => {
      await page.keyboard.press('Control+P');
      await page.locator('.quick-input-widget input').fill('composer.json');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'composer.json' }).first().waitFor();
      await page.keyboard.press('Enter');
      const token = page.locator('.view-line span', { hasText: 'wpackagist-plugin/woocommerce' }).first();
      await token.waitFor({ timeout: 15_000 });
      // Let diagnostics arrive (squiggles), then hover.
      await page.locator('.squiggly-warning').first().waitFor({ timeout: 20_000 });
      await page.mouse.move(10, 10);
      await token.hover();
      // Our hover, not only the diagnostic's ("performance grade D…" would match a looser text): it has the contexts.
      const hover = page.locator('.monaco-hover:visible', { hasText: 'Homepage' });
      await hover.waitFor({ timeout: 15_000 });
      const text = await hover.innerText();
      assert.match(text, /WooCommerce/);
      assert.match(text, /Activation/);
      assert.match(text, /Homepage/);
      assert.match(text, /Admin/);
      await page.screenshot({ path: path.join(SHOTS, 'hover.png') });
    });

    await step('the WP Bench view lists the site total and plugins worst first', async () => {
      await page.mouse.move(700, 820);
      await page.keyboard.press('Escape');
      await page.locator('.activitybar .action-item a[aria-label^="WP Bench"]').click();
      const total = page.locator('.monaco-list-row', { hasText: 'Site total' });
      await total.waitFor({ timeout: 15_000 });
      await page.locator('.monaco-list-row', { hasText: 'Plugins' }).first().waitFor();
      const rows = await page.locator('.pane-body .monaco-list-row').allInnerTexts();
      const pluginRow = rows.findIndex((r) => /^Plugins/.test(r.trim()));
      assert.ok(pluginRow >= 0, rows.join(' | '));
      assert.match(rows[pluginRow + 1], /E · [\d.]+/, `worst plugin first: ${rows[pluginRow + 1]}`);
      assert.ok(rows.some((r) => /LayerSlider WP/.test(r) && /not a wordpress\.org slug/.test(r)), `a premium folder is listed and says why it is not looked up: ${rows.join(' | ')}`);
      await page.screenshot({ path: path.join(SHOTS, 'tree.png') });
    });

    await step('the status bar tooltip has tier and reset date', async () => {
      const item = page.locator('.statusbar-item', { hasText: '/ 500,000' });
      await item.hover();
      await page.locator('.monaco-hover:visible', { hasText: 'resets' }).waitFor({ timeout: 10_000 });
      const box = await item.boundingBox();
      await page.screenshot({ path: path.join(SHOTS, 'statusbar.png'), clip: { x: Math.max(0, box.x - 420), y: box.y - 160, width: 640, height: 190 } });
      await page.mouse.move(700, 400);
    });

    await step('palette → "WP Bench: Look Up Plugin…" → a panel with the same facts', async () => {
      await palette(page, 'WP Bench: Look Up Plugin');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible' });
      await input.fill('elementor');
      await page.keyboard.press('Enter');
      const frame = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
      await frame.locator('h1').waitFor({ timeout: 15_000 });
      assert.match(await frame.locator('h1').innerText(), /Elementor/);
      assert.match(await frame.locator('table').innerText(), /Activation/);
      await page.screenshot({ path: path.join(SHOTS, 'lookup.png') });
    });
  } catch {
    await page.screenshot({ path: path.join(SHOTS, 'failure.png') }).catch(() => undefined);
  } finally {
    await wb.close();
    emulator.stop();
  }
}
console.log(`ui: ${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
