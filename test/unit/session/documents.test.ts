// WorkspaceDocuments: folder scans, live edits of open files, and the component list built from both — with the
// fake host's scanner, no request.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ScanResult } from '../../../src/core/model';
import { WorkspaceDocuments } from '../../../src/core/session/documents';
import type { SessionHost } from '../../../src/core/session/types';
import { component, deferred, fakeApi, fakeHost } from '../helpers/fakeSession';

const stats = { filesOpened: 0, bytesRead: 0, dirsRead: 0 };
const live = (signal = new AbortController().signal) => signal;

function documents(scan: SessionHost['scan'], folders = [fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-docs-'))]) {
  const { sessionHost, roots } = fakeHost(fakeApi(), { folders, scan });
  const context = new Map<string, unknown>();
  sessionHost.setContext = (key, value) => void context.set(key, value);
  return { docs: new WorkspaceDocuments(sessionHost, Date.now), roots, context };
}

describe('session documents', () => {
  it('merges every folder into one entry per slug, with absolute paths and the folders that declare it', async () => {
    const a = fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-docs-a-'));
    const b = fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-docs-b-'));
    const { docs, context } = documents(async (root): Promise<ScanResult> => ({ root, components: root === a ? [component('akismet'), component('jetpack', 'wp-env.json')] : [component('akismet', 'composer.lock', 7)], problems: [], stats }), [a, b]);
    assert.equal(await docs.scan(live()), true);
    const akismet = docs.components.find((c) => c.slug === 'akismet');
    assert.deepEqual(akismet?.folders, [a, b]);
    assert.deepEqual(akismet?.locations.map((l) => [l.file, l.line]), [[path.join(a, 'composer.json'), 1], [path.join(b, 'composer.lock'), 7]]);
    assert.equal(akismet?.lookup, 'yes');
    assert.deepEqual(docs.components.map((c) => c.slug).sort(), ['akismet', 'jetpack']);
    assert.equal(context.get('wpBench.nothingDetected'), false);
  });

  it('a cancelled scan changes nothing; a folder whose scan fails becomes a problem, not a lost scan', async () => {
    const inScan = deferred();
    const gate = deferred();
    let mode: 'ok' | 'held' | 'fail' = 'ok';
    const { docs, roots } = documents(async (root) => {
      if (mode === 'held') {
        inScan.resolve();
        await gate.promise;
      }
      if (mode === 'fail') throw new Error('EACCES');
      return { root, components: [component(mode === 'ok' ? 'akismet' : 'jetpack')], problems: [], stats };
    });
    await docs.scan(live());
    mode = 'held';
    const abort = new AbortController();
    const cancelled = docs.scan(abort.signal);
    await inScan.promise;
    abort.abort(); // a newer scan started while this one ran
    gate.resolve();
    assert.equal(await cancelled, false);
    assert.deepEqual(docs.components.map((c) => c.slug), ['akismet'], 'the cancelled scan did not replace the results');
    mode = 'fail';
    assert.equal(await docs.scan(live()), true);
    assert.deepEqual(docs.components, []);
    assert.equal(docs.problems.length, 1);
    assert.match(docs.problems[0].message, /EACCES/);
    assert.equal(docs.problems[0].absFile, roots[0]);
  });

  it('an edited file overrides its scanned self (components and problems); forgetting it falls back to the scan', async () => {
    const { docs, roots } = documents(async (root) => ({ root, components: [component('akismet')], problems: [{ file: 'composer.json', line: 1, column: 1, message: 'old problem' }], stats }));
    await docs.scan(live());
    const file = path.join(roots[0], 'composer.json');
    assert.equal(await docs.update(file, JSON.stringify({ require: { 'wpackagist-plugin/jetpack': '*' } }), () => false), true);
    assert.deepEqual(docs.components.map((c) => c.slug), ['jetpack']);
    assert.deepEqual(docs.problems, [], 'the edited file has no problem now');
    assert.equal(docs.forget(file), true);
    assert.deepEqual(docs.components.map((c) => c.slug), ['akismet']);
    assert.equal(docs.problems.length, 1);
    assert.equal(docs.forget(file), false, 'nothing live to forget');
  });

  it('a parse that finishes after the file was closed, or outside every folder, is dropped', async () => {
    const { docs, roots } = documents(async (root) => ({ root, components: [component('akismet')], problems: [], stats }));
    await docs.scan(live());
    const file = path.join(roots[0], 'composer.json');
    const text = JSON.stringify({ require: { 'wpackagist-plugin/jetpack': '*' } });
    const edit = docs.update(file, text, () => false);
    docs.forget(file); // closed while the edit was parsed
    assert.equal(await edit, false);
    assert.equal(await docs.update(file, text, () => true), false, 'already closed');
    assert.equal(await docs.update(path.join(os.tmpdir(), 'elsewhere', 'composer.json'), text, () => false), false);
    assert.deepEqual(docs.components.map((c) => c.slug), ['akismet']);
  });

  it('a file belongs to the longest workspace folder that contains it', () => {
    const outer = fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-docs-outer-'));
    const inner = path.join(outer, 'wp-content');
    const { docs } = documents(undefined, [outer, inner]);
    assert.equal(docs.folderOf(path.join(inner, 'plugins', 'x.php')), inner);
    assert.equal(docs.folderOf(path.join(outer, 'composer.json')), outer);
    assert.equal(docs.folderOf(path.join(os.tmpdir(), 'not-in-any')), undefined);
  });
});
