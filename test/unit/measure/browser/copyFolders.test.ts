// With --baseline-ref both copies sit in folders of their own ("acme--wpbench-new", "acme--wpbench-ref"): the browser
// pass must look for each copy's files there, or neither record names a file of its own.
import { strict as assert } from 'node:assert';
import { copyFolders } from '../../../../src/core/measure/browser/pass';

describe('browser pass: the folders of each copy', () => {
  const acme = { kind: 'plugin' as const, slug: 'acme' };
  it('one copy: the component’s own folder', () => {
    assert.deepEqual(copyFolders(acme, 'measured', false), ['/wp-content/plugins/acme/']);
  });
  it('--baseline-ref: the working tree’s copy and REF’s, each in its suffixed folder', () => {
    assert.deepEqual(copyFolders(acme, 'measured', true), ['/wp-content/plugins/acme--wpbench-new/']);
    assert.deepEqual(copyFolders(acme, 'ref', true), ['/wp-content/plugins/acme--wpbench-ref/']);
  });
  it('a child theme’s parent keeps its name; a must-use REF reads its own mu folder', () => {
    assert.deepEqual(copyFolders({ kind: 'theme', slug: 'kid', parent: { slug: 'mom' } }, 'ref', true), ['/wp-content/themes/kid--wpbench-ref/', '/wp-content/themes/mom/']);
    assert.deepEqual(copyFolders({ kind: 'plugin', slug: 'mu', mustUse: true }, 'ref', true), ['/wp-content/wpb-mu-ref/mu/', '/wp-content/wpb-mu-ref/mu.php']);
  });
});
