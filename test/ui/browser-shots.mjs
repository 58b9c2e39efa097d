// Screenshots of what the visitor pays (Measure Locally with wpBench.measure.browser) in the real VS Code
// (code-server + headless Chromium): a slider-like plugin of our own written into the sample site (a head script
// doing 120 ms of work, a stylesheet, a 293 KB hero image, a banner pushed in after load), measured once from the
// palette, then WP Bench: Show What the Visitor Pays (the waterfall and filmstrip) and the hover on its header, in a
// dark, a light and a high-contrast theme (chosen as a user would, Ctrl+K Ctrl+T).
//   node test/ui/browser-shots.mjs        (screenshots in docs/screenshots/, or WPBENCH_SCREENSHOT_DIR)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { copyFixture, startEmulator } from '../integration/run.mjs';
import { noisePng } from '../fixtures/lib/noisePng.mjs';
import { SHOTS, THEMES, openSampleWorkbench, measureFromPalette, palette, pickTheme, quickOpen, setUpSample, showHover } from './drive.mjs';


const busy = (ms) => `(function(){var t=performance.now();while(performance.now()-t<${ms}){}})();`;
function writeSlider(workspace) {
  const root = path.join(workspace, 'wp-content', 'plugins', 'acme-slider');
  fs.mkdirSync(root, { recursive: true });
  fs.writeFileSync(path.join(root, 'acme-slider.php'), `<?php
/**
 * Plugin Name: Acme Slider
 * Version: 2.1
 */
add_action('wp_enqueue_scripts', function () {
  wp_enqueue_style('acme-slider', plugins_url('slider.css', __FILE__), array(), '2.1');
  wp_enqueue_script('acme-slider-core', plugins_url('slider-core.js', __FILE__), array(), '2.1', false);
  wp_enqueue_script('acme-slider-banner', plugins_url('banner.js', __FILE__), array(), '2.1', true);
});
add_action('wp_body_open', function () { echo '<div class="acme-slider"><img src="' . esc_url(plugins_url('hero.png', __FILE__)) . '" width="1200" height="600" alt="" style="display:block"></div>'; });
`);
  fs.writeFileSync(path.join(root, 'slider.css'), '.acme-slider{margin:0 auto;max-width:1200px}.acme-slider img{width:100%;height:auto}\n');
  fs.writeFileSync(path.join(root, 'slider-core.js'), busy(120));
  fs.writeFileSync(path.join(root, 'banner.js'), `addEventListener('load', function () { setTimeout(function () { ${busy(90)} var b = document.createElement('div'); b.style.height = '90px'; b.style.background = '#c00'; b.textContent = 'Sale!'; document.body.insertBefore(b, document.body.firstChild); }, 300); });`);
  fs.writeFileSync(path.join(root, 'hero.png'), noisePng(400, 250));
}

fs.mkdirSync(SHOTS, { recursive: true });
const emulator = await startEmulator();
const workspace = copyFixture();
writeSlider(workspace);
const wb = await openSampleWorkbench(workspace, emulator.url);
const { page } = wb;
try {
  await setUpSample(page, THEMES[0], 'Acme Slider');
  await measureFromPalette(page, 'WP Bench: Measure Locally', 'Acme Slider');
  const done = page.locator('.notification-toast', { hasText: /Acme Slider measured locally/ });
  await done.waitFor({ timeout: 240_000 });
  await done.locator('a.monaco-button', { hasText: 'Show What the Visitor Pays' }).click();
  const frame = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
  await frame.locator('h1', { hasText: 'What the visitor pays' }).waitFor({ timeout: 20_000 });
  assert.ok((await frame.locator('svg.waterfall rect.wf-bar.own').count()) >= 3, 'its own requests in colour');
  assert.ok((await frame.locator('table.filmstrip img').count()) >= 2, 'a filmstrip');
  await palette(page, 'Notifications: Clear All Notifications');
  for (const { suffix, theme, workbenchClass } of THEMES) {
    await pickTheme(page, theme);
    await page.locator(`.monaco-workbench.${workbenchClass}`).waitFor({ timeout: 15_000 });
    // The report: its tab brought to the front (running the command again would re-render it under the locator),
    // scrolled to the waterfall and the filmstrip, once the theme's colours have reached the webview's frame.
    await page.locator('.tab', { hasText: 'What the visitor pays' }).first().click();
    const heading = frame.locator('h3', { hasText: 'With Acme Slider' });
    await heading.waitFor({ timeout: 20_000 });
    const editorBg = await page.evaluate(() => getComputedStyle(document.querySelector('.monaco-workbench')).getPropertyValue('--vscode-editor-background').trim());
    await frame.locator(`html[style*="--vscode-editor-background: ${editorBg}"]`).waitFor({ timeout: 15_000 });
    await heading.evaluate((e) => e.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: path.join(SHOTS, `browser-report${suffix}.png`) });
    // The hover on the plugin's header.
    // Keys typed while the webview has the focus stay in its frame: the file's tab is clicked once it has one.
    const tab = page.locator('.tab', { hasText: 'acme-slider.php' });
    if (await tab.count()) await tab.first().click();
    else await quickOpen(page, 'acme-slider.php');
    const token = page.locator('.view-line span', { hasText: 'Acme Slider' }).first();
    await token.waitFor({ timeout: 15_000 });
    const hover = await showHover(page, token, 'Visitor (homepage');
    assert.match(await hover.innerText(), /Visitor \(homepage, desktop\): \+\d+ KB/);
    await page.waitForFunction(() => document.getAnimations().filter((a) => a.effect?.target?.closest?.('.monaco-hover')).every((a) => a.playState === 'finished'));
    await page.screenshot({ path: path.join(SHOTS, `browser-hover${suffix}.png`) });
    await page.mouse.move(1000, 700);
    await page.keyboard.press('Escape');
    console.log(`  ✔ ${theme}: browser-report${suffix}.png, browser-hover${suffix}.png`);
  }
} catch (err) {
  await page.screenshot({ path: path.join(SHOTS, 'browser-failed.png') }).catch(() => undefined);
  throw err;
} finally {
  await wb.close();
  emulator.stop();
  fs.rmSync(workspace, { recursive: true, force: true });
}
