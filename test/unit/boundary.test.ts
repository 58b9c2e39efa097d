import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { readManifest } from './helpers/manifest';

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await files(p)));
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

describe('architecture', () => {
  it('src/core, src/cli and src/emulator never import vscode', async () => {
    const all = [...(await files('src/core')), ...(await files('src/emulator')), ...(await files('src/cli')), 'src/wp-bench.ts'];
    assert.ok(all.length > 10);
    const offenders = [];
    for (const f of all) {
      const text = await fs.readFile(f, 'utf8');
      if (/from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\s*\(\s*['"]vscode['"]/.test(text)) offenders.push(f);
    }
    assert.deepEqual(offenders, []);
  });

  it('the extension bundle does not contain undici (it loads with the first request)', async () => {
    const bundle = await fs.readFile('dist/extension.js', 'utf8').catch(() => '');
    assert.ok(bundle.length > 0, 'run npm run build first');
    assert.ok(!/undici/i.test(bundle.replace(/createUndiciTransport/g, '')), 'dist/extension.js must not bundle undici');
  });

  it('every contributed command is registered in src/ and carries the WP Bench category', async () => {
    const pkg = readManifest();
    const src = (await Promise.all((await files('src')).map((f) => fs.readFile(f, 'utf8')))).join('\n');
    for (const c of pkg.contributes.commands) {
      assert.equal(c.category, 'WP Bench', c.command);
      assert.ok(src.includes(`'${c.command}'`), `${c.command} is never registered`);
    }
    for (const [key, prop] of Object.entries<{ scope?: string; description?: string; markdownDescription?: string }>(pkg.contributes.configuration.properties)) {
      assert.ok(prop.scope, `${key} has no scope`);
      assert.ok(prop.description || prop.markdownDescription, `${key} has no description`);
    }
    assert.equal(pkg.contributes.configuration.properties['wpBench.apiUrl'].scope, 'application');
  });

  it('the README documents every setting and command', async () => {
    const pkg = readManifest();
    const readme = await fs.readFile('README.md', 'utf8');
    for (const key of Object.keys(pkg.contributes.configuration.properties)) assert.ok(readme.includes(`\`${key}\``), `README lacks ${key}`);
    for (const c of pkg.contributes.commands) {
      const hidden = (pkg.contributes.menus.commandPalette ?? []).some((m: { command: string; when: string }) => m.command === c.command && m.when === 'false');
      if (!hidden) assert.ok(readme.includes(`WP Bench: ${c.title}`), `README lacks the command "WP Bench: ${c.title}"`);
    }
  });
});

describe('getting started walkthrough', () => {
  it('has the three steps with commands, completion events, and pictures for light, dark and high-contrast themes with alt text', () => {
    const fs = require('node:fs') as typeof import('node:fs');
    const path = require('node:path') as typeof import('node:path');
    const root = path.join(__dirname, '..', '..');
    const pkg = readManifest(root);
    const [w] = pkg.contributes.walkthroughs;
    assert.deepEqual(w.steps.map((s: { id: string }) => s.id), ['setAddress', 'setKey', 'openSite']);
    for (const s of w.steps) {
      assert.ok(s.completionEvents?.length, `${s.id}: completion event`);
      assert.match(s.description, /\(command:wpBench\./, `${s.id}: a button`);
      assert.ok(s.media.altText.length > 20, `${s.id}: alt text`);
      for (const theme of ['light', 'dark', 'hc', 'hcLight']) assert.ok(fs.existsSync(path.join(root, s.media.image[theme])), `${s.id}: ${theme} image`);
    }
    assert.ok(fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8').includes('!media/**'), 'the pictures ship in the .vsix');
  });
});
