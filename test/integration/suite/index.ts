// Mocha entry run inside the extension host, by @vscode/test-electron on desktops and by code-server here.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec', forbidOnly: true });
  const grep = process.env.WPBENCH_TEST_GREP;
  if (grep) mocha.grep(grep);
  // The untrusted-workspace file needs its own VS Code run (trust is decided when the folder opens).
  const untrusted = process.env.WPBENCH_TEST_SUITE === 'untrusted';
  const files = fs.readdirSync(__dirname).filter((f) => f.endsWith('.test.js') && f.startsWith('untrusted') === untrusted);
  if (files.length === 0) return Promise.reject(new Error('no integration test files found'));
  for (const file of files.sort()) mocha.addFile(path.join(__dirname, file));
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const { passes = 0, pending = 0 } = runner.stats ?? {};
      console.log(`integration: ${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}`);
      if (failures > 0 || pending > 0) reject(new Error(`${failures} integration tests failed, ${pending} skipped`));
      else resolve();
    });
  });
}
