// LookupRunner: cached answers first, requests only for what is missing and allowed, outcomes kept per API address,
// answers of a replaced client dropped — over the real connection and cache, the fake host and API, and a stand-in
// for the consent (it allows, or records the per-scan question).
import * as assert from 'node:assert/strict';
import { DiskCache } from '../../../src/core/cache/diskCache';
import { nullLogger } from '../../../src/core/logger';
import { LookupService, type LookupItem } from '../../../src/core/lookup/lookupService';
import { ApiConnection } from '../../../src/core/session/connection';
import { LookupRunner } from '../../../src/core/session/lookupRunner';
import { Notices } from '../../../src/core/session/notices';
import { deferred, fakeApi, fakeHost, type Reply } from '../helpers/fakeSession';
import { sampleBody } from '../helpers/samples';

const items = (...slugs: string[]): LookupItem[] => slugs.map((slug) => ({ kind: 'plugin', slug }));

async function setup(o: { maxPerScan?: number; allow?: boolean; slugs?: string[] } = {}) {
  const api = fakeApi();
  const { host, sessionHost } = fakeHost(api, { settings: { maxPerScan: o.maxPerScan ?? 200 } });
  const cache = new DiskCache({ dir: sessionHost.storageDir, ttlHours: 24, logger: nullLogger });
  const notices = new Notices(sessionHost, () => undefined);
  const connection = new ApiConnection(sessionHost, sessionHost.settings(), cache, notices, { quotaChanged: () => undefined, lookUp: async () => undefined }, Date.now);
  await connection.refreshKeyState();
  const limitAsked: LookupItem[][] = [];
  const consent = { mayRequest: async () => o.allow ?? true, askToExceedLimit: (needed: LookupItem[]) => void limitAsked.push(needed) };
  let changes = 0;
  const runner = new LookupRunner({
    host: sessionHost,
    connection,
    consent,
    notices,
    service: new LookupService(cache, () => connection.client, Date.now),
    items: () => items(...(o.slugs ?? ['akismet', 'jetpack'])),
    changed: () => void changes++,
  });
  return { api, host, connection, runner, limitAsked, changes: () => changes };
}

describe('session lookup runner', () => {
  it('looks up what is missing once; later runs answer from the cache without a request', async () => {
    const { api, runner, changes } = await setup();
    await runner.lookupAll();
    assert.deepEqual(api.sent.sort(), ['/api/v1/plugins/akismet', '/api/v1/plugins/jetpack'].sort());
    assert.equal(runner.outcome('plugin', 'akismet')?.result?.state, 'benchmarked');
    assert.ok(changes() >= 2, 'the surfaces heard of the cached pass and of the answers');
    await runner.lookupAll();
    assert.equal(api.sent.length, 2, 'no request twice');
    assert.deepEqual(await runner.uncached('plugin', ['akismet', 'hello-dolly']), ['hello-dolly']);
    assert.equal(runner.busy, false);
  });

  it('more than the per-scan limit asks first and sends nothing; consented, it sends them', async () => {
    const { api, runner, limitAsked } = await setup({ maxPerScan: 1 });
    await runner.lookupAll();
    assert.deepEqual(api.sent, []);
    assert.deepEqual(limitAsked, [items('akismet', 'jetpack')]);
    await runner.lookupAll({ only: items('akismet', 'jetpack'), consented: true });
    assert.equal(api.sent.length, 2);
  });

  it('nothing is sent when the consent says no; lookupOne says why', async () => {
    const { api, runner } = await setup({ allow: false });
    await runner.lookupAll();
    assert.deepEqual(api.sent, []);
    const o = await runner.lookupOne('plugin', 'akismet');
    assert.equal(o.error?.kind, 'cancelled');
    assert.deepEqual(api.sent, []);
  });

  it('lookupOne without a key answers "missing-key" and sends nothing', async () => {
    const { api, host, connection, runner } = await setup();
    host.key = undefined;
    await connection.refreshKeyState();
    const o = await runner.lookupOne('plugin', 'akismet');
    assert.equal(o.error?.kind, 'missing-key');
    assert.deepEqual(api.sent, []);
  });

  it("a replaced client's late answer never lands; outcomes are kept per API address", async () => {
    const { api, host, connection, runner } = await setup({ slugs: ['akismet'] });
    await runner.lookupAll();
    assert.equal(runner.outcome('plugin', 'akismet')?.result?.state, 'benchmarked');
    const held = deferred<Reply>();
    api.reply = () => held.promise;
    const late = runner.lookupOne('plugin', 'jetpack');
    while (!api.sent.includes('/api/v1/plugins/jetpack')) await new Promise<void>((r) => setImmediate(r)); // the request is out
    assert.equal(runner.busy, true);
    host.settingsValue = { ...host.settingsValue, apiUrl: 'http://127.0.0.1:10/other' };
    connection.settingsChanged();
    held.resolve({ status: 200, body: sampleBody({ slug: 'jetpack' }) });
    await late;
    assert.equal(runner.busy, false);
    assert.equal(runner.outcome('plugin', 'jetpack'), undefined, 'the old answer was dropped');
    assert.equal(runner.outcome('plugin', 'akismet'), undefined, "the first address's outcomes do not show for the second");
    runner.clear();
  });

  it('a refused key is said once, and not sent again', async () => {
    const { api, host, runner } = await setup({ slugs: ['akismet'] });
    api.reply = () => ({ status: 403, body: { error: 'revoked' } });
    await runner.lookupAll();
    await new Promise<void>((r) => setImmediate(r));
    assert.equal(runner.outcome('plugin', 'akismet')?.error?.kind, 'forbidden');
    assert.equal(host.errors.length, 1);
    const sent = api.sent.length;
    await runner.lookupAll();
    assert.equal(api.sent.length, sent, 'the refused key is not sent again');
  });
});
