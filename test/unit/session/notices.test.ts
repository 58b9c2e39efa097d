// Notices: one message per problem. A scan of 300 slugs meeting a bad key says it once; a new key or a new
// address may be told about again; what needs no action only goes to the log.
import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/core/api/errors';
import type { Logger } from '../../../src/core/logger';
import { Notices } from '../../../src/core/session/notices';

function fakeEditor(answer?: string) {
  const shown: string[] = [];
  const commands: string[] = [];
  const warnings: string[] = [];
  const logger: Logger = { info: () => undefined, warn: (m) => void warnings.push(m), error: () => undefined, debug: () => undefined };
  const host = {
    error: async (message: string) => (shown.push(message), answer),
    runCommand: async (id: string) => void commands.push(id),
    logger,
  };
  return { host, shown, commands, warnings };
}

describe('session notices', () => {
  it('a refused key is said once per kind; a new key may be told about again', async () => {
    const { host, shown } = fakeEditor();
    const n = new Notices(host, () => undefined);
    for (let i = 0; i < 300; i++) await n.report(new ApiError('forbidden', 'The key was revoked.'));
    assert.deepEqual(shown, ['The key was revoked.']);
    await n.report(new ApiError('invalid-key', 'Unknown key.'));
    assert.equal(shown.length, 2, 'another kind of refusal is news');
    n.keyChanged();
    await n.report(new ApiError('invalid-key', 'Unknown key.'));
    assert.equal(shown.length, 3, 'after a key change it is said again');
    assert.deepEqual(n.shown, { forbidden: 1, 'invalid-key': 2 });
  });

  it('a used-up quota is said once per reset time and redraws the quota; "Show Account" runs its command', async () => {
    const { host, shown, commands } = fakeEditor('Show Account');
    let quotaChanges = 0;
    const n = new Notices(host, () => quotaChanges++);
    await n.report(new ApiError('quota-exceeded', 'Quota used up.', { resetAt: 1000 }));
    await n.report(new ApiError('quota-exceeded', 'Quota used up.', { resetAt: 1000 }));
    assert.equal(shown.length, 1);
    assert.equal(quotaChanges, 1);
    await new Promise<void>((r) => setImmediate(r)); // the button's answer is not awaited by report()
    assert.deepEqual(commands, ['wpBench.showAccount']);
    await n.report(new ApiError('quota-exceeded', 'Quota used up.', { resetAt: 2000 }));
    assert.equal(shown.length, 2, 'a new reset period is news');
    assert.equal(n.shown['quota-exceeded'], 2);
  });

  it('a wrong address is said once until the address changes or is checked again; its button sets the address', async () => {
    const { host, shown, commands } = fakeEditor('Set API Address');
    const n = new Notices(host, () => undefined);
    await n.report(new ApiError('wrong-address', 'Not a WP Bench API.'));
    await n.report(new ApiError('wrong-address', 'Not a WP Bench API.'));
    assert.equal(shown.length, 1);
    assert.deepEqual(commands, ['wpBench.setApiUrl']);
    n.addressChanged();
    await n.report(new ApiError('wrong-address', 'Not a WP Bench API.'));
    assert.equal(shown.length, 2);
  });

  it('errors that need no action from the user go to the log only', async () => {
    const { host, shown, warnings } = fakeEditor();
    const n = new Notices(host, () => undefined);
    await n.report(new ApiError('server', 'The API answered 500.'));
    assert.deepEqual(shown, []);
    assert.deepEqual(warnings, ['The API answered 500.']);
    assert.deepEqual(n.shown, {});
  });
});
