// The decisions behind each VS Code surface, in plain Node: the location index the hover and diagnostics read, the
// hover's notice, the diagnostic per declaring range and the status bar's quota text.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { LocationIndex } from '../../../src/core/session/locationIndex';
import { WorkspaceSession } from '../../../src/core/session/session';
import { componentDiagnostic, componentHover, quotaStatus } from '../../../src/core/session/surfaces';
import { component, fakeApi, fakeHost } from '../helpers/fakeSession';
import { sampleBody } from '../helpers/samples';

describe('surfaces over the session', () => {
  it('the location index finds the entry under a position, inclusive at both ends', () => {
    const index = new LocationIndex<{ slug: string; locations: { file: string; line: number; column: number; length: number }[] }>();
    index.rebuild([{ slug: 'akismet', locations: [{ file: '/w/composer.json', line: 5, column: 6, length: 25 }] }]);
    assert.equal(index.at('/w/composer.json', 4, 5)?.entry.slug, 'akismet');
    assert.equal(index.at('/w/composer.json', 4, 30)?.entry.slug, 'akismet');
    assert.equal(index.at('/w/composer.json', 4, 31), undefined);
    assert.equal(index.at('/w/composer.json', 3, 10), undefined);
    assert.deepEqual(index.files(), ['/w/composer.json']);
  });

  it('hover, diagnostic and status bar follow the session: set-up first, then grades against the folder minimum', async () => {
    const api = fakeApi();
    api.reply = (p) => ({ status: 200, body: sampleBody({ slug: p.split('/').pop(), speed_score: { grade: 'E', numeric: 20 } }) });
    const { host, sessionHost, roots } = fakeHost(api, { slugs: ['jetpack'] });
    host.key = undefined;
    const s = new WorkspaceSession(sessionHost);
    await s.refreshKeyState();
    await s.rescan();
    const file = path.join(roots[0], 'composer.json');
    assert.match(componentHover(s, s.components[0], file), /No API key set/);
    assert.equal(quotaStatus(s).command, 'wpBench.setApiKey');
    host.key = 'wpb_test_key_1';
    await s.onKeyChanged();
    const d = componentDiagnostic(s, s.components[0], file);
    assert.equal(d?.severity, 'warning');
    assert.equal(d?.code, 'grade-below-threshold');
    assert.match(d!.message, /grade E .* below the minimum C/);
    assert.equal(quotaStatus(s).level, 'ok');
    s.dispose();
    // A folder that does not look up its own code: a mu-plugin says why, and never gets a diagnostic.
    const { sessionHost: h2 } = fakeHost(fakeApi(), {
      scan: async (root) => ({ root, components: [{ ...component('loader', 'wp-content/mu-plugins/loader.php'), locations: [{ file: 'wp-content/mu-plugins/loader.php', line: 3, column: 17, length: 6, source: 'mu-plugin' }], mustUse: true }], problems: [], stats: { filesOpened: 0, bytesRead: 0, dirsRead: 0 } }),
    });
    const s2 = new WorkspaceSession(h2);
    await s2.refreshKeyState();
    await s2.rescan();
    assert.equal(s2.components[0].lookup, 'not-from-wordpress-org');
    assert.match(componentHover(s2, s2.components[0]), /must-use plugin/);
    assert.equal(componentDiagnostic(s2, s2.components[0], 'x'), null);
    s2.dispose();
  });
});

describe('surfaces: the activation cost in the grade diagnostic', () => {
  it('the grade diagnostic says the activation cost with the same formatter (not "0 MB memory") and "1 query"', async () => {
    const api = fakeApi();
    api.reply = (p) => ({ status: 200, body: sampleBody({ slug: p.split('/').pop(), speed_score: { grade: 'E', numeric: 20 }, contexts: { activation: { ttfb_delta_ms: 12.5, memory_delta_kb: 300, queries_delta: 1 }, homepage: null, admin: null } }) });
    const { sessionHost, roots } = fakeHost(api, { slugs: ['jetpack'] });
    const s = new WorkspaceSession(sessionHost);
    try {
      await s.refreshKeyState();
      await s.rescan();
      const d = componentDiagnostic(s, s.components[0], path.join(roots[0], 'composer.json'));
      assert.match(d!.message, /Activation adds 12\.5 ms TTFB, 300 KB memory, 1 query\./);
    } finally {
      s.dispose();
    }
  });
});
