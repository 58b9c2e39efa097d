// UI test: drives the packaged .vsix in code-server as a person would — palette → "WP Bench: Set API Key" →
// hover a composer.json entry → open the WP Bench view → look up a plugin — asserting what is on screen and
// saving screenshots to docs/screenshots/ (the README shows them; WPBENCH_SCREENSHOT_DIR=dir saves them elsewhere).
//   node test/ui/ui.mjs [--vsix file.vsix]        (npm run test:ui packages first)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import os from 'node:os';
import { openWorkbench, selectedTargets, VSCODE_TARGETS } from '../integration/harness/runInCodeServer.mjs';
import { copyFixture, startEmulator } from '../integration/run.mjs';
import { PRO_KEY, comparePlugins, palette, pickTheme, setApiKey } from './drive.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// The README's screenshots come from the minimum VS Code; runs on the newest save theirs in a temp folder (printed).
function shotsFor(target) {
  if (process.env.WPBENCH_SCREENSHOT_DIR) return path.resolve(process.env.WPBENCH_SCREENSHOT_DIR, target.name);
  return target === VSCODE_TARGETS[0] ? path.join(ROOT, 'docs', 'screenshots') : path.join(os.tmpdir(), `wp-bench-screenshots-${target.name}`);
}
let SHOTS;

const { values } = parseArgs({ options: { vsix: { type: 'string' } } });
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const vsix = path.resolve(values.vsix ?? path.join(ROOT, `wp-bench-${pkg.version}.vsix`));
assert.ok(fs.existsSync(vsix), `${vsix} not found: run npm run package`);

/** Temporary folders of this run, removed at its end with the workspace. */
const made = [];
const tmpDir = (prefix) => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(d);
  return d;
};
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

/**
 * A notification saying `text`. Read in the notification centre, which holds every notification, toast or not:
 * VS Code 1.100 shows ours as toasts; 1.139 shows no toast at all while the smoke-test driver is on
 * (`addToast` returns early on `environmentService.enableSmokeTestDriver`), which the harness needs there.
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
      await setApiKey(page, PRO_KEY);
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
      // Caught once mid-fade under the diagnostic's hover: shot when the hover's animations have finished.
      await page.waitForFunction(() => document.getAnimations().filter((a) => a.effect?.target?.closest?.('.monaco-hover')).every((a) => a.playState === 'finished'));
      await page.screenshot({ path: path.join(SHOTS, 'hover.png') });
    });

    await step('inline grades at the end of the composer.json lines, in the theme colour, no line shift', async () => {
      await page.mouse.move(700, 820);
      await page.keyboard.press('Escape');
      // Decorations' `after` text is CSS generated content: read what the editor really paints.
      const annotations = async () =>
        page.evaluate(() =>
          [...document.querySelectorAll('.view-line span')]
            .map((el) => getComputedStyle(el, '::after').content)
            .filter((c) => c && c !== 'none' && c !== 'normal')
            .map((c) => c.replace(/^"|"$/g, '')),
        );
      let texts = [];
      for (let i = 0; i < 100 && !texts.some((t) => /^[A-F][+-]? · \+[\d.]+ ms homepage$/.test(t)); i++) {
        texts = await annotations();
        if (!texts.length) await page.waitForTimeout(100);
      }
      assert.ok(texts.some((t) => /^E · \+[\d.]+ ms homepage$/.test(t)), `a graded line: ${texts.join(' | ')}`);
      assert.ok(texts.every((t) => /^([A-F][+-]? · |not |ignored|lookup failed)/.test(t)), texts.join(' | '));
      const lines = await page.locator('.view-line').count();
      assert.ok(lines > 5);
      await page.screenshot({ path: path.join(SHOTS, 'inline.png'), clip: { x: 300, y: 30, width: 1100, height: 420 } });
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
      await palette(page, 'View: Close All Editors');
    });

    await step('the site report: totals, a chart with a bar per measured component, lists beside, a bar row opens its line', async () => {
      await palette(page, 'WP Bench: Show Site Report');
      const frame = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
      await frame.locator('h1', { hasText: 'Site report' }).waitFor({ timeout: 15_000 });
      assert.match(await frame.locator('table.totals').innerText(), /Homepage[\s\S]*TTFB/);
      const rows = frame.locator('#wpb-values tbody tr');
      await rows.first().waitFor({ state: 'attached' });
      const n = await rows.count();
      assert.ok(n >= 5, `${n} measured components`);
      const painted = await frame.locator('#wpb-chart').evaluate((c) => {
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let filled = 0;
        for (let i = 3; i < d.length; i += 4) if (d[i] > 0) filled++;
        return filled;
      });
      assert.ok(painted > 1000, `the chart is drawn (${painted} pixels)`);
      assert.match(await frame.locator('#wpb-side').innerText(), /Without a benchmark/);
      await frame.locator('button[data-metric="memory"]').click();
      await frame.locator('#wpb-chart-title', { hasText: 'Memory' }).waitFor();
      await frame.locator('button[data-metric="ttfb"]').click();
      await page.screenshot({ path: path.join(SHOTS, 'site-report.png') });
      // Readable in light and high-contrast themes too: the page and the canvas follow the theme (chosen as a user
      // would, with Ctrl+K Ctrl+T).
      const setTheme = (theme) => pickTheme(page, theme);
      for (const [theme, bodyClass, file] of [['Light Modern', 'vscode-light', 'site-report-light.png'], ['Dark High Contrast', 'vscode-high-contrast', 'site-report-hc.png']]) {
        await setTheme(theme);
        await frame.locator(`body.${bodyClass}`).waitFor({ timeout: 15_000 });
        await page.screenshot({ path: path.join(SHOTS, file) });
      }
      await setTheme('Dark Modern');
      await frame.locator('body.vscode-dark').waitFor({ timeout: 15_000 });
      await frame.locator('details.values summary').click();
      await frame.locator('#wpb-values tbody tr').first().locator('button').click();
      await page.locator('.tab.active', { hasText: /composer\.json|\.php/ }).waitFor({ timeout: 10_000 });
      await palette(page, 'View: Close All Editors');
    });

    await step('compare two plugins: typed into the picker, side by side with the best marked, and the chart', async () => {
      // Tick WooCommerce from the workspace's list (filtered by typing), then type a slug and press Enter.
      const frame = await comparePlugins(page, ['woocommerce'], 'jetpack');
      const table = await frame.locator('table.compare').innerText();
      assert.match(table, /WooCommerce/);
      assert.match(table, /Jetpack/);
      assert.ok((await frame.locator('td.best').count()) >= 5, 'best values marked');
      assert.equal(await frame.locator('#wpb-values tbody tr').count(), 2);
      await page.screenshot({ path: path.join(SHOTS, 'compare.png') });
      await palette(page, 'View: Close All Editors');
    });

    await step('wp-bench check --format html: a page for clients, one bar per measured component, synthetic label', async () => {
      const out = path.join(tmpDir('wpb-report-'), 'report.html');
      const r = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), 'check', workspace, '--format', 'html', '--output', out, '--fail-on', 'none'], {
        env: { ...process.env, WPBENCH_API_URL: emulator.url, WPBENCH_API_KEY: PRO_KEY },
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stderr + r.stdout);
      const report = await wb.browser.newPage({ viewport: { width: 900, height: 1100 } });
      const requests = [];
      report.on('request', (q) => requests.push(q.url()));
      await report.goto(`file://${out}`);
      assert.ok((await report.locator('svg rect.bar').count()) >= 5);
      assert.ok(await report.locator('.synthetic').isVisible());
      assert.equal(requests.length, 1, requests.join(' '));
      await report.screenshot({ path: path.join(SHOTS, 'html-report.png') });
      await report.close();
    });
  } catch {
    await page.screenshot({ path: path.join(SHOTS, 'failure.png') }).catch(() => undefined);
  } finally {
    await wb.close();
    emulator.stop();
    for (const d of [workspace, ...made.splice(0)]) fs.rmSync(d, { recursive: true, force: true });
  }
}
console.log(`ui: ${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
