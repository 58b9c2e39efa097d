// Driving the workbench as a person would, shared by the UI test and the screenshot scripts.

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
