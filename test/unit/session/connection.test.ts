// ApiConnection: the client follows the settings (a new one only when the address, limits or proxy change), the key
// state, key changes applied once per write, and a validated key's /me answer reused — over the fake host and API.
import * as assert from 'node:assert/strict';
import { DiskCache } from '../../../src/core/cache/diskCache';
import { nullLogger } from '../../../src/core/logger';
import { ApiConnection } from '../../../src/core/session/connection';
import { Notices } from '../../../src/core/session/notices';
import type { SessionHost } from '../../../src/core/session/types';
import { deferred, fakeApi, fakeHost } from '../helpers/fakeSession';

function connect(sessionHost: SessionHost, lookUp: () => Promise<void> = async () => undefined) {
  const context = new Map<string, unknown>();
  sessionHost.setContext = (key, value) => void context.set(key, value);
  const ttl: number[] = [];
  const cache = new DiskCache({ dir: sessionHost.storageDir, ttlHours: 24, logger: nullLogger });
  const setTtl = cache.setTtlHours.bind(cache);
  cache.setTtlHours = (h) => (ttl.push(h), setTtl(h));
  let quotaChanges = 0;
  const notices = new Notices(sessionHost, () => undefined);
  const c = new ApiConnection(sessionHost, sessionHost.settings(), cache, notices, { quotaChanged: () => void quotaChanges++, lookUp }, Date.now);
  return { c, context, ttl, quotaChanges: () => quotaChanges };
}

describe('session connection', () => {
  it('without an address there is no client and a lookup says why; an unusable address is the problem shown', async () => {
    const { host, sessionHost } = fakeHost(fakeApi(), { settings: { apiUrl: '' } });
    const { c, context } = connect(sessionHost);
    assert.equal(c.client, undefined);
    assert.equal(c.hasApiUrl, false);
    assert.equal(context.get('wpBench.hasApiUrl'), false);
    assert.throws(() => c.requireClient(), (e: { kind?: string }) => e.kind === 'missing-url');
    await assert.rejects(c.validateKey('wpb_x'), (e: { kind?: string }) => e.kind === 'missing-url');
    host.settingsValue = { ...host.settingsValue, apiUrl: 'not a url' };
    c.settingsChanged();
    assert.equal(c.client, undefined);
    assert.ok(c.apiUrlProblem, 'the address problem is kept for the surfaces');
    assert.throws(() => c.requireClient(), (e: unknown) => e === c.apiUrlProblem);
  });

  it('a new client (and generation) only when the address, limits or proxy change; the cache TTL follows its setting', () => {
    const { host, sessionHost } = fakeHost(fakeApi());
    const { c, ttl, context } = connect(sessionHost);
    const first = c.client;
    const generation = c.generation;
    assert.ok(first);
    assert.equal(context.get('wpBench.hasApiUrl'), true);
    host.settingsValue = { ...host.settingsValue, maxPerScan: 5, ttlHours: 48 };
    c.settingsChanged();
    assert.equal(c.client, first, 'the per-scan limit and the TTL need no new client');
    assert.equal(c.generation, generation);
    assert.deepEqual(ttl, [48]);
    assert.equal(c.settings.maxPerScan, 5);
    host.settingsValue = { ...host.settingsValue, timeoutSeconds: 9 };
    c.settingsChanged();
    assert.notEqual(c.client, first);
    assert.equal(c.generation, generation + 1, 'answers of the old client are dropped');
    const second = c.client;
    host.settingsValue = { ...host.settingsValue, proxy: { proxy: 'http://proxy.test:3128' } };
    c.settingsChanged();
    assert.notEqual(c.client, second, 'the proxy changed');
  });

  it('the key state is read from the host and said to the editor', async () => {
    const { host, sessionHost } = fakeHost(fakeApi());
    const { c, context, quotaChanges } = connect(sessionHost);
    await c.refreshKeyState();
    assert.equal(c.hasKey, true);
    assert.equal(context.get('wpBench.hasKey'), true);
    host.key = undefined;
    const before = quotaChanges();
    await c.refreshKeyState();
    assert.equal(c.hasKey, false);
    assert.equal(context.get('wpBench.hasKey'), false);
    assert.equal(quotaChanges(), before + 1);
  });

  it('reports of the same key while its change runs share one run; another write runs again', async () => {
    const { host, sessionHost } = fakeHost(fakeApi());
    const gate = deferred();
    let lookUps = 0;
    const { c } = connect(sessionHost, async () => {
      lookUps++;
      await gate.promise;
    });
    const a = c.keyChanged();
    const b = c.keyChanged();
    gate.resolve();
    await Promise.all([a, b]);
    assert.equal(c.keyChangesApplied, 1);
    assert.equal(lookUps, 1);
    host.key = 'wpb_test_key_2';
    await c.keyChanged();
    assert.equal(c.keyChangesApplied, 2);
    assert.equal(lookUps, 2);
  });

  it("a validated key's /me answer becomes the quota when the key is applied, without a second /me", async () => {
    const api = fakeApi();
    let me = 0;
    api.reply = (p) => (p.endsWith('/me') ? (me++, { status: 200, body: { tier: 'pro', quota: 100, used: 7 } }) : { status: 404, body: {} });
    const { host, sessionHost } = fakeHost(api);
    const { c } = connect(sessionHost);
    host.key = 'wpb_new_key';
    const account = await c.validateKey('wpb_new_key');
    assert.equal(account.used, 7);
    assert.equal(me, 1);
    await c.keyChanged();
    assert.equal(me, 1, 'no second /me');
    assert.equal(c.quota?.used, 7);
    assert.equal(c.lastAccount?.tier, 'pro');
    assert.equal((await c.fetchAccount()).used, 7);
    assert.equal(me, 2, 'fetchAccount asks');
  });
});
