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
