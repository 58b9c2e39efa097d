// Driving the workbench as a person would, shared by the UI test and the screenshot scripts.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openWorkbench, VSCODE_TARGETS } from '../integration/harness/runInCodeServer.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where the screenshot scripts write: docs/screenshots/, or WPBENCH_SCREENSHOT_DIR. */
export const SHOTS = process.env.WPBENCH_SCREENSHOT_DIR ? path.resolve(process.env.WPBENCH_SCREENSHOT_DIR) : path.join(ROOT, 'docs', 'screenshots');

/**
 * A screenshot script's workbench: a copy of the sample site (`workspace`) in the oldest VS Code we support, with the
 * extension from this checkout (its title bar says "Extension Development Host") against the emulator at `apiUrl`.
 */
export function openSampleWorkbench(workspace, apiUrl) {
  return openWorkbench({
    codeServerDir: VSCODE_TARGETS[0].dir,
    workspace,
    extensionDevelopmentPath: ROOT,
    viewport: { width: 1400, height: 860 },
    // Instructions off: the shots' Measure Locally stays as quick as before (counting adds 20–60 s a component).
    settings: { 'wpBench.apiUrl': apiUrl, 'editor.hover.delay': 150, 'workbench.tips.enabled': false, 'window.commandCenter': false, 'wpBench.measure.instructions': false },
  });
}

/** The themes a screenshot script takes: all three, or those named after `--themes` (dark, light, hc). */
export function chosenThemes(argv = process.argv) {
  const i = argv.indexOf('--themes');
  if (i < 0) return THEMES;
  const named = argv.slice(i + 1);
  return THEMES.filter((t) => named.includes(t.suffix ? t.suffix.slice(1) : 'dark'));
}

/** Runs a command from the palette (Ctrl+Shift+P), waiting for its row before pressing Enter. */
export async function palette(page, command) {
  await page.keyboard.press('Control+Shift+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${command}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: command }).first().waitFor();
  await page.keyboard.press('Enter');
}

/** Opens a workspace file by name with Quick Open (Ctrl+P). */
export async function quickOpen(page, name) {
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').fill(name);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor();
  await page.keyboard.press('Enter');
}

/** Chooses a color theme in the theme picker (Ctrl+K Ctrl+T) by its label, e.g. "Dark High Contrast". */
export async function pickTheme(page, theme) {
  await page.keyboard.press('Control+K');
  await page.keyboard.press('Control+T');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(theme);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: theme }).first().waitFor();
  await page.keyboard.press('Enter');
}

/**
 * WP Bench: Compare Plugins, ticking each of `tick` in the picker (filtered by typing), then `typed` (a slug typed
 * and accepted with Enter, if given); resolves with the comparison's webview frame once its heading shows.
 */
export async function comparePlugins(page, tick, typed) {
  await palette(page, 'WP Bench: Compare Plugins');
  // The picker itself (not the palette's input, which is still closing): keys typed before would go there.
  const input = page.locator('.quick-input-widget input[placeholder*="Tick 2 to 5"]');
  await input.waitFor({ state: 'visible' });
  for (const slug of tick) {
    await input.fill(slug);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: slug }).first().click();
  }
  if (typed) {
    await input.fill(typed);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: typed }).first().waitFor();
  }
  await page.keyboard.press('Enter');
  const frame = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
  await frame.locator('h1', { hasText: 'Comparison' }).waitFor({ timeout: 15_000 });
  return frame;
}

/** The demo key the emulator knows (Pro tier). */
export const PRO_KEY = 'wpb_demo_pro_3b9d6f2a8e1c4075';

/**
 * Chosen in the theme picker (a `workbench.colorTheme` in the profile's settings was not applied by code-server:
 * every picture came out light), and checked on the workbench's own class before any picture is taken.
 */
export const THEMES = [
  { suffix: '', theme: 'Dark Modern', workbenchClass: 'vs-dark' },
  { suffix: '-light', theme: 'Light Modern', workbenchClass: 'vs' },
  { suffix: '-hc', theme: 'Dark High Contrast', workbenchClass: 'hc-black' },
];

/** Palette → "WP Bench: Set API Key" → the password box → Enter; resolves when the box has closed. */
export async function setApiKey(page, key) {
  await palette(page, 'WP Bench: Set API Key');
  const input = page.locator('.quick-input-widget input[type="password"]');
  await input.waitFor({ state: 'visible' });
  await input.fill(key);
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden' });
}

/** In a freshly opened workbench: `theme` chosen, the demo key set, the WP Bench view open showing `row`. */
export async function setUpSample(page, { theme, workbenchClass }, row) {
  await page.locator('.statusbar-item', { hasText: 'Set up WP Bench' }).waitFor({ timeout: 60_000 });
  await pickTheme(page, theme);
  await page.locator(`.monaco-workbench.${workbenchClass}`).waitFor({ timeout: 15_000 });
  await setApiKey(page, PRO_KEY);
  await page.locator('.activitybar .action-item a[aria-label^="WP Bench"]').click();
  await page.locator('.monaco-list-row', { hasText: row }).first().waitFor({ timeout: 30_000 });
}

/** Palette → `command` (Measure or Profile Locally) → pick `name` → Continue on the one sentence. */
export async function measureFromPalette(page, command, name) {
  await palette(page, command);
  const pick = page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
  await pick.waitFor({ timeout: 15_000 });
  await pick.click();
  const toast = page.locator('.notification-toast', { hasText: `runs the PHP of ${name}` });
  await toast.waitFor({ timeout: 15_000 });
  await toast.locator('a.monaco-button', { hasText: 'Continue' }).click();
}

/** Drags the side bar's edge `by` pixels wider, so the tree's descriptions read in full. */
export async function widenSideBar(page, by) {
  const box = await page.locator('.part.sidebar').boundingBox();
  await page.mouse.move(box.x + box.width + 1, 400);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width + by, 400, { steps: 5 });
  await page.mouse.up();
}

/**
 * Shows the editor's hover over `token` (a locator of a word in the editor) and waits for one holding `hasText`: a
 * mouse hover is sometimes not taken (the pointer already there, a tooltip closing), so away and back a few times,
 * then the keyboard's Show Hover on the same word. Returns the hover's locator.
 */
export async function showHover(page, token, hasText) {
  const hover = page.locator('.monaco-editor .monaco-hover:visible', { hasText });
  for (let i = 0; i < 4 && !(await hover.isVisible()); i++) {
    await page.mouse.move(1000, 700);
    await token.hover();
    await hover.waitFor({ timeout: 4_000 }).catch(() => undefined);
  }
  if (!(await hover.isVisible())) {
    await token.click();
    await palette(page, 'Show or Focus Hover');
  }
  await hover.waitFor({ timeout: 15_000 });
  return hover;
}
