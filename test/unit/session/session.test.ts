// The workspace session in plain Node: fakes for the editor (folders, trust, prompts, settings, key) and for the
// HTTP transport. Each test is one of the defects the session was built to fix.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WorkspaceSession, withIgnored, type SessionHost } from '../../../src/core/session/session';
import { component, deferred, fakeApi, fakeHost, type Reply } from '../helpers/fakeSession';
import { sampleBody } from '../helpers/samples';

async function started(sessionHost: SessionHost): Promise<WorkspaceSession> {
  const s = new WorkspaceSession(sessionHost);
  await s.refreshKeyState();
  return s;
}

/** Resolves when the session reports `idle` with nothing pending (event-driven, no sleeps). */
function idle(s: WorkspaceSession): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (s.state === 'idle') {
        d.dispose();
        resolve();
      }
    };
    const d = s.onDidChange(check);
    check();
  });
}

describe('workspace session', () => {
  it('1. a rescan asked for during a scan or its lookups schedules exactly one more', async () => {
    const api = fakeApi();
    const gate = deferred();
    const inScan = deferred();
    let calls = 0;
    const { sessionHost } = fakeHost(api, {
      scan: async (root) => {
        calls++;
        inScan.resolve();
        if (calls === 1) await gate.promise;
        return { root, components: [component(calls === 1 ? 'akismet' : 'jetpack')], problems: [], stats: { filesOpened: 0, bytesRead: 0, dirsRead: 0 } };
      },
    });
    const s = await started(sessionHost);
    const first = s.rescan();
    await inScan.promise;
    const second = s.rescan(); // `composer require` in the terminal while the first scan runs
    const third = s.rescan(); // and Refresh, too
    gate.resolve();
    await Promise.all([first, second, third]);
    assert.equal(calls, 2, 'one more scan, not zero and not two more');
    assert.deepEqual(s.components.map((c) => c.slug), ['jetpack'], 'the later scan wins');
    // During lookups too: the rescan is not dropped.
    const held = deferred<Reply>();
    api.reply = () => held.promise;
    const during = s.rescan();
    await new Promise<void>((r) => {
      const d = s.onDidChange(() => s.state === 'looking-up' && (d.dispose(), r()));
    });
    const again = s.rescan();
    held.resolve({ status: 200, body: sampleBody({ slug: 'jetpack' }) });
    await Promise.all([during, again]);
    assert.equal(calls, 4);
    s.dispose();
  });

  it('2. a dismissed untrusted-workspace or per-scan-limit prompt is not asked again in the session', async () => {
    const api = fakeApi();
    const { host, sessionHost } = fakeHost(api, { trusted: false });
    const s = await started(sessionHost);
    await s.rescan();
    await s.rescan();
    await s.rescan();
    assert.equal(host.prompts.length, 1, host.prompts.join('\n'));
    assert.deepEqual(api.sent, []);
    const { host: host2, sessionHost: h2 } = fakeHost(fakeApi(), { settings: { maxPerScan: 1 } });
    const s2 = await started(h2);
    await s2.rescan();
    await s2.rescan();
    assert.equal(host2.prompts.length, 1);
    assert.match(host2.prompts[0], /would send 2 requests/);
    s.dispose();
    s2.dispose();
  });

  it('3. answers of a replaced client never land; the state is not idle while lookups run', async () => {
    const api = fakeApi();
    const held = deferred<Reply>();
    api.reply = () => held.promise;
    const { host, sessionHost } = fakeHost(api, { slugs: ['akismet'] });
    const s = await started(sessionHost);
    const run = s.rescan();
    await new Promise<void>((r) => {
      const d = s.onDidChange(() => s.state === 'looking-up' && (d.dispose(), r()));
    });
    host.settingsValue = { ...host.settingsValue, apiUrl: 'http://127.0.0.1:10/other' };
    api.reply = (p) => (p.endsWith('/me') ? { status: 200, body: { tier: 'pro', quota: 10, used: 1 } } : { status: 404, body: {} }); // the new API does not know it
    const settled = s.onSettingsChanged();
    held.resolve({ status: 200, body: sampleBody({ slug: 'akismet' }) }); // the old API answers late
    await Promise.all([run, settled]);
    await idle(s);
    assert.equal(s.outcome('plugin', 'akismet')?.result?.state, 'not-in-dataset', 'the old answer was dropped');
    s.dispose();
  });

  it('4. a composer.json edited and closed unsaved falls back to the file on disk', async () => {
    const api = fakeApi();
    const { roots, sessionHost } = fakeHost(api, { slugs: ['akismet'] });
    const file = path.join(roots[0], 'composer.json');
    fs.writeFileSync(file, '{}');
    const s = await started(sessionHost);
    await s.rescan();
    let closed = false;
    const edit = s.updateDocument(file, JSON.stringify({ require: { 'wpackagist-plugin/unsaved-plugin': '*' } }), () => closed);
    s.forgetDocument(file); // closed while the edit was parsed
    closed = true;
    await edit;
    // The debounced parse of the closed document fires late: it is ignored too.
    await s.updateDocument(file, JSON.stringify({ require: { 'wpackagist-plugin/unsaved-plugin': '*' } }), () => closed);
    assert.deepEqual(s.components.map((c) => c.slug), ['akismet']);
    s.dispose();
  });

  it('3b. whenSettled() waits for a key change, a settings change and lookups in flight, not for a pause', async () => {
    const api = fakeApi();
    const held = deferred<Reply>();
    const { sessionHost } = fakeHost(api, { slugs: ['akismet'] });
    const s = await started(sessionHost);
    void s.rescan();
    await s.whenSettled(); // the scan and its lookups
    assert.equal(s.state, 'idle');
    assert.equal(s.outcome('plugin', 'akismet')?.result?.state, 'benchmarked');
    // A forced lookup whose answer is held, with a key change and a settings change beside it.
    api.reply = (p) => (p.endsWith('/me') ? { status: 200, body: { tier: 'pro', quota: 10, used: 1 } } : held.promise);
    const sentBefore = api.sent.length;
    void s.lookupAll({ force: true });
    void s.onKeyChanged();
    void s.onSettingsChanged();
    let settled = false;
    const done = s.whenSettled().then(() => (settled = true));
    // Not settled while the lookup is held, however many turns of the event loop pass.
    for (let i = 0; i < 20; i++) await new Promise<void>((r) => setImmediate(r));
    assert.ok(api.sent.length > sentBefore, 'the forced lookup was sent');
    assert.equal(settled, false, 'still running: the held lookup');
    assert.notEqual(s.state, 'idle');
    held.resolve({ status: 200, body: sampleBody({ slug: 'akismet' }) });
    await done;
    assert.equal(s.state, 'idle');
    s.dispose();
  });

  it('5. wpBench.ignore re-judges and looks up again; it is read per folder; the workspace list is never the merged one', async () => {
    const api = fakeApi();
    const a = fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-a-'));
    const b = fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-b-'));
    let ignoreA: string[] = ['akismet'];
    const { sessionHost } = fakeHost(api, { folders: [a, b], slugs: ['akismet'], folderSettings: (root) => ({ ignore: root === a ? ignoreA : [] }) });
    const s = await started(sessionHost);
    await s.rescan();
    assert.equal(s.isIgnored('akismet', path.join(a, 'composer.json')), true);
    assert.equal(s.isIgnored('akismet', path.join(b, 'composer.json')), false, 'folder b has its own setting');
    const sentBefore = api.sent.length;
    ignoreA = [];
    await s.onSettingsChanged();
    assert.ok(s.activeEntries.some((e) => e.slug === 'akismet'));
    assert.ok(api.sent.length >= sentBefore, 'looked up after the change');
    assert.equal(s.judgement().counts.ignored, 0);
    assert.deepEqual(withIgnored(['a'], 'b'), ['a', 'b']);
    assert.deepEqual(withIgnored(undefined, 'b'), ['b']);
    s.dispose();
  });

  it('6. scan problems are kept with absolute paths; an edited file replaces its own', async () => {
    const api = fakeApi();
    const { roots, sessionHost } = fakeHost(api, {
      scan: async (root) => ({ root, components: [], problems: [{ file: 'composer.json', line: 2, column: 3, message: 'Invalid JSON: ValueExpected' }], stats: { filesOpened: 0, bytesRead: 0, dirsRead: 0 } }),
    });
    const s = await started(sessionHost);
    await s.rescan();
    assert.deepEqual(s.problems.map((p) => [p.absFile, p.line]), [[path.join(roots[0], 'composer.json'), 2]]);
    await s.updateDocument(path.join(roots[0], 'composer.json'), '{ "require": {} }', () => false);
    assert.deepEqual(s.problems, []);
    s.dispose();
  });

  it('7. the scan is cancelled when a newer scan starts and when the session ends', async () => {
    const api = fakeApi();
    const signals: AbortSignal[] = [];
    const gate = deferred();
    const inScan = deferred();
    const { sessionHost } = fakeHost(api, {
      scan: async (root, signal) => {
        signals.push(signal);
        inScan.resolve();
        if (signals.length === 1) await gate.promise;
        return { root, components: [component('jetpack')], problems: [], stats: { filesOpened: 0, bytesRead: 0, dirsRead: 0 } };
      },
    });
    const s = await started(sessionHost);
    const run = s.rescan();
    await inScan.promise;
    s.rescan();
    assert.equal(signals[0].aborted, true, 'the running scan was told to stop');
    gate.resolve();
    await run;
    assert.equal(signals.length, 2);
    const gate2 = deferred();
    const inScan2 = deferred();
    const { sessionHost: h2 } = fakeHost(api, {
      scan: async (root, signal) => {
        signals.push(signal);
        inScan2.resolve();
        await gate2.promise;
        return { root, components: [], problems: [], stats: { filesOpened: 0, bytesRead: 0, dirsRead: 0 } };
      },
    });
    const s2 = await started(h2);
    const run2 = s2.rescan();
    await inScan2.promise;
    s2.dispose();
    assert.equal(signals[2].aborted, true, 'closing the window stops the scan');
    gate2.resolve();
    await run2;
    s.dispose();
  });

  it('8a. a 429 blocks lookups until the reset, across a reload; the reset passing lifts it', async () => {
    const api = fakeApi();
    let now = Date.parse('2026-11-23T12:00:00Z');
    const reset = now + 3600_000;
    api.reply = () => ({ status: 429, body: { error: 'quota' }, headers: { 'x-ratelimit-reset': String(Math.floor(reset / 1000)) } });
    const storageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-session-store-'));
    const opts = { storageDir, now: () => now, slugs: ['akismet', 'jetpack'] };
    const s = await started(fakeHost(api, opts).sessionHost);
    await s.rescan();
    const afterFirst = api.sent.length;
    assert.ok(afterFirst >= 1);
    s.dispose();
    // Reload: a new session on the same storage sends nothing before the reset.
    const s2 = await started(fakeHost(api, opts).sessionHost);
    await s2.rescan();
    assert.equal(api.sent.length, afterFirst, 'no request after a reload before the reset');
    assert.equal(s2.blockedUntil, reset);
    s2.dispose();
    now = reset + 1;
    api.reply = () => ({ status: 200, body: sampleBody() });
    const s3 = await started(fakeHost(api, opts).sessionHost);
    await s3.rescan();
    assert.ok(api.sent.length > afterFirst, 'after the reset, lookups resume');
    s3.dispose();
  });

  it('8b. a rejected key is not sent again after a reload; setting the same key again clears it', async () => {
    const api = fakeApi();
    api.reply = () => ({ status: 403, body: { error: 'revoked' } });
    const storageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-session-store-'));
    const s = await started(fakeHost(api, { storageDir }).sessionHost);
    await s.rescan();
    const sent = api.sent.length;
    s.dispose();
    const files = fs.readdirSync(storageDir).filter((f) => f.startsWith('quota-state-'));
    assert.equal(files.length, 1);
    assert.ok(!fs.readFileSync(path.join(storageDir, files[0]), 'utf8').includes('wpb_test_key_1'), 'the key itself is never stored');
    const { sessionHost } = fakeHost(api, { storageDir });
    const s2 = await started(sessionHost);
    await s2.rescan();
    assert.equal(api.sent.length, sent, 'the same rejected key is not sent after a reload');
    api.reply = () => ({ status: 200, body: sampleBody() });
    await s2.onKeyChanged(); // "Set API Key" with the same key (renewed subscription)
    assert.ok(api.sent.length > sent);
    s2.dispose();
  });

  it('8d. an API address that answers 404 to everything is said once (with "Set API Address"), never shown as "not in dataset"', async () => {
    const api = fakeApi();
    api.reply = () => ({ status: 404, body: {} });
    const slugs = ['akismet', 'jetpack', 'query-monitor', 'classic-editor', 'redirection', 'woocommerce', 'wordpress-seo', 'contact-form-7', 'wp-super-cache', 'updraftplus'];
    const { host, sessionHost } = fakeHost(api, { slugs });
    const s = await started(sessionHost);
    await s.rescan();
    await idle(s);
    for (const slug of slugs) {
      const o = s.outcome('plugin', slug);
      assert.equal(o?.result, undefined, slug);
      assert.equal(o?.error?.kind, 'wrong-address', slug);
    }
    const sent = api.sent.length;
    assert.ok(sent >= 1 && sent <= 4, `at most the lookups in flight (concurrency 4) are sent, not all 10 (${sent})`);
    await s.rescan();
    await idle(s);
    assert.equal(api.sent.length, sent, 'nothing more is sent to a wrong address');
    assert.deepEqual(host.errors.filter((e) => /not a WP Bench API/.test(e)).length, 1, host.errors.join('\n'));
    // Refresh after the server was fixed: checked anew, answers arrive.
    api.reply = (p) => (p.endsWith('/me') ? { status: 200, body: { tier: 'pro', quota: 10, used: 1 } } : { status: 200, body: sampleBody({ slug: p.split('/').pop() }) });
    s.recheckAddress();
    await s.rescan();
    await idle(s);
    assert.equal(s.outcome('plugin', 'akismet')?.result?.state, 'benchmarked');
    assert.ok(slugs.every((slug) => s.outcome('plugin', slug)?.error === undefined));
    s.dispose();
  });

  it('8e. a key change reported twice (command, then the secret store) keeps the quota the lookups reported since', async () => {
    const api = fakeApi();
    let counted = 0;
    api.reply = (p) =>
      p.endsWith('/me')
        ? { status: 200, body: { tier: 'pro', quota: 500000, used: counted } }
        : { status: 200, body: sampleBody({ slug: p.split('/').pop() }), headers: { 'x-ratelimit-limit': '500000', 'x-ratelimit-remaining': String(500000 - ++counted) } };
    let t = Date.UTC(2026, 10, 24);
    const { host, sessionHost } = fakeHost(api, { slugs: ['akismet', 'jetpack'], now: () => (t += 1000) });
    const s = await started(sessionHost);
    host.key = 'wpb_test_key_2';
    assert.equal((await s.validateKey('wpb_test_key_2')).used, 0);
    await s.onKeyChanged(); // "Set API Key"
    await s.rescan();
    await idle(s);
    assert.equal(s.quota?.used, 2);
    await s.onKeyChanged(); // the secret store's change event for the same key, after the lookups
    await idle(s);
    assert.equal(s.quota?.used, 2, 'not the validation-time 0 again');
    assert.equal(api.sent.length, 2, 'and no request for it');
    s.dispose();
  });

  it('8c. a failed lookup is remembered for 10 minutes per slug', async () => {
    const api = fakeApi();
    let now = Date.parse('2026-11-23T12:00:00Z');
    api.reply = () => ({ status: 200, raw: 'not json' });
    const { sessionHost } = fakeHost(api, { now: () => now, slugs: ['akismet'] });
    const s = await started(sessionHost);
    await s.rescan();
    assert.equal(api.sent.length, 1);
    await s.lookupAll();
    await s.lookupAll();
    assert.equal(api.sent.length, 1, 'every edit does not ask again');
    now += 10 * 60 * 1000 + 1;
    await s.lookupAll();
    assert.equal(api.sent.length, 2);
    s.dispose();
  });
});

describe('workspace session: the key and its API origin', () => {
  it('a key saved for one address is not sent to another until the user allows it', async () => {
    const api = fakeApi();
    const { host, sessionHost } = fakeHost(api, { slugs: ['akismet'] });
    host.keyOrigin = 'http://127.0.0.1:9';
    host.settingsValue = { ...host.settingsValue, apiUrl: 'http://127.0.0.1:10/api' }; // changed by a sync or a link
    const s = new WorkspaceSession(sessionHost);
    await s.refreshKeyState();
    await s.rescan();
    assert.deepEqual(api.sent, [], 'the key was not sent to the new origin');
    assert.equal(host.prompts.length, 1);
    assert.match(host.prompts[0], /changed to http:\/\/127\.0\.0\.1:10.*saved for http:\/\/127\.0\.0\.1:9/);
    await assert.rejects(s.fetchAccount(), /allow sending the key there first/);
    // Setting the key again binds it to the current address.
    await s.bindKeyToCurrentOrigin();
    await s.onKeyChanged();
    assert.equal(host.keyOrigin, 'http://127.0.0.1:10');
    assert.equal(api.sent.length, 1);
    s.dispose();
  });

  it('a key that could not be saved leaves the old key bound to its old address (the undo of the binding)', async () => {
    const { host, sessionHost } = fakeHost(fakeApi(), { slugs: [] });
    host.keyOrigin = 'http://127.0.0.1:9';
    host.settingsValue = { ...host.settingsValue, apiUrl: 'http://127.0.0.1:10/api' };
    const s = new WorkspaceSession(sessionHost);
    await s.refreshKeyState();
    const unbind = await s.bindKeyToCurrentOrigin();
    assert.equal(host.keyOrigin, 'http://127.0.0.1:10');
    await unbind(); // the keychain refused the new key
    assert.equal(host.keyOrigin, 'http://127.0.0.1:9');
    s.dispose();
  });

  it('whenKeyApplied() waits for the key change reported last, not for unrelated work', async () => {
    const api = fakeApi();
    const { sessionHost } = fakeHost(api, { slugs: ['akismet'] });
    const s = new WorkspaceSession(sessionHost);
    await s.refreshKeyState();
    let applied = false;
    void s.onKeyChanged().then(() => (applied = true));
    await s.whenKeyApplied();
    assert.equal(applied, true);
    assert.equal(s.keyChangesApplied, 1);
    s.dispose();
  });
});
