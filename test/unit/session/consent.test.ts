// LookupConsent: whether a request may go (key, refusal, block, key origin, trust) and the questions that decide it —
// asked once at a time, never again once dismissed — over the fake host and a stand-in for the connection.
import * as assert from 'node:assert/strict';
import type { LookupItem } from '../../../src/core/lookup/lookupService';
import { LookupConsent } from '../../../src/core/session/consent';
import type { LookupAllOptions } from '../../../src/core/session/types';
import { deferred, fakeApi, fakeHost } from '../helpers/fakeSession';

function setup(o: { trusted?: boolean; origin?: string; bound?: string; maxPerScan?: number; rejected?: boolean; blockedUntil?: number | null } = {}) {
  const { host, sessionHost } = fakeHost(fakeApi(), { trusted: o.trusted });
  host.keyOrigin = o.bound;
  const connection = {
    client: { origin: o.origin ?? 'http://127.0.0.1:9' } as never,
    hasKey: true,
    blockedUntil: o.blockedUntil ?? null,
    guard: { rejection: () => (o.rejected ? { kind: 'forbidden', message: 'revoked' } : undefined) } as never,
    settings: { ...host.settingsValue, maxPerScan: o.maxPerScan ?? 200 },
  };
  const lookUps: (LookupAllOptions | undefined)[] = [];
  const consent = new LookupConsent(sessionHost, connection, async (opts) => void lookUps.push(opts));
  return { host, connection, consent, lookUps };
}

const settle = () => new Promise<void>((r) => setImmediate(r));

describe('session consent', () => {
  it('a key saved before any address binds to the first; another address waits for the user', async () => {
    const s = setup();
    assert.equal(await s.consent.keyMayGo(), true);
    assert.equal(s.host.keyOrigin, 'http://127.0.0.1:9');
    const moved = setup({ origin: 'http://127.0.0.1:10', bound: 'http://127.0.0.1:9' });
    moved.host.answer = 'Send the Key There';
    assert.equal(await moved.consent.keyMayGo(), false);
    assert.match(moved.host.prompts[0], /changed to http:\/\/127\.0\.0\.1:10/);
    await settle();
    await settle();
    assert.equal(moved.host.keyOrigin, 'http://127.0.0.1:10', 'the user said yes');
    assert.deepEqual(moved.lookUps, [undefined], 'and the lookups run again');
  });

  it('no request without a key, with a refused key or while blocked — and no question either', async () => {
    for (const o of [{ rejected: true }, { blockedUntil: Date.now() + 1000 }]) {
      const s = setup(o);
      assert.equal(await s.consent.mayRequest(3), false);
      assert.deepEqual(s.host.prompts, []);
    }
    const s = setup();
    s.connection.hasKey = false;
    assert.equal(await s.consent.mayRequest(1), false);
    s.connection.hasKey = true;
    s.host.key = undefined;
    assert.equal(await s.consent.mayRequest(1), false);
    assert.deepEqual(s.host.prompts, []);
  });

  it('an untrusted workspace asks once; dismissed, it is not asked again; allowed, lookups run', async () => {
    const s = setup({ trusted: false });
    assert.equal(await s.consent.mayRequest(2), false);
    assert.equal(await s.consent.mayRequest(2), false);
    await settle();
    assert.equal(s.host.prompts.length, 1, 'one question at a time');
    assert.match(s.host.prompts[0], /found 2 plugins and themes/);
    assert.equal(await s.consent.mayRequest(2), false);
    await settle();
    assert.equal(s.host.prompts.length, 1, 'dismissed: not asked again in this session');
    await s.consent.allowUntrustedLookups();
    assert.equal(await s.consent.mayRequest(2), true);
    assert.deepEqual(s.lookUps, [undefined]);
  });

  it('a question is pending while it is on screen', async () => {
    const s = setup({ trusted: false });
    const shown = deferred<string | undefined>();
    const hostAsk = deferred();
    const { sessionHost } = fakeHost(fakeApi(), { trusted: false });
    sessionHost.ask = async () => (hostAsk.resolve(), shown.promise);
    const consent = new LookupConsent(sessionHost, s.connection, async () => undefined);
    assert.equal(consent.pending, undefined);
    await consent.mayRequest(1);
    await hostAsk.promise;
    assert.equal(consent.pending, 'untrusted');
    shown.resolve(undefined);
    await settle();
    assert.equal(consent.pending, undefined);
  });

  it('more than the per-scan limit: "Only N" looks up the first N, consented', async () => {
    const s = setup({ maxPerScan: 2 });
    s.host.answer = 'Only 2';
    const needed: LookupItem[] = ['a', 'b', 'c'].map((slug) => ({ kind: 'plugin', slug }));
    s.consent.askToExceedLimit(needed);
    await settle();
    await settle();
    assert.match(s.host.prompts[0], /would send 3 requests.*limit per scan is 2/);
    assert.deepEqual(s.lookUps, [{ only: needed.slice(0, 2), consented: true }]);
    const all = setup({ maxPerScan: 2 });
    all.host.answer = 'Look Up All 3';
    all.consent.askToExceedLimit(needed);
    await settle();
    await settle();
    assert.deepEqual(all.lookUps, [{ only: needed, consented: true }]);
  });

  it('binding the key to the current address can be undone, and lets the origin question be asked again', async () => {
    const s = setup({ origin: 'http://127.0.0.1:10', bound: 'http://127.0.0.1:9' });
    assert.equal(await s.consent.keyMayGo(), false);
    await settle();
    assert.equal(s.host.prompts.length, 1);
    const undo = await s.consent.bindKeyToCurrentOrigin();
    assert.equal(s.host.keyOrigin, 'http://127.0.0.1:10');
    await undo();
    assert.equal(s.host.keyOrigin, 'http://127.0.0.1:9');
    assert.equal(await s.consent.keyMayGo(), false);
    await settle();
    assert.equal(s.host.prompts.length, 2, 'asked again after the key was set');
  });
});
