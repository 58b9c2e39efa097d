// Mocha entry run inside the extension host, by @vscode/test-electron on desktops and by code-server here.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';

export function run(): Promise<void> {
  // The run must be on the VS Code it claims to test (minimum or newest), not whatever happened to be installed.
  const expected = process.env.WPBENCH_EXPECT_VSCODE;
  console.log(`VS Code ${vscode.version}, extension host on Node ${process.version}`);
  if (expected && vscode.version !== expected) return Promise.reject(new Error(`expected VS Code ${expected}, this is ${vscode.version}`));
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec', forbidOnly: true });
  const grep = process.env.WPBENCH_TEST_GREP;
  if (grep) mocha.grep(grep);
  // Files named after a suite (untrusted, dormant) need their own VS Code run on their own workspace (trust is
  // decided when the folder opens; a non-WordPress folder is another workspace); the rest is the trusted suite.
  const own = ['untrusted', 'dormant'];
  const suite = process.env.WPBENCH_TEST_SUITE ?? 'trusted';
  const files = fs.readdirSync(__dirname).filter((f) => f.endsWith('.test.js') && (own.includes(suite) ? f.startsWith(suite) : !own.some((o) => f.startsWith(o))));
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
