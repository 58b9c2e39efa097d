// What the page script's shift reports may hold (the binding is the isolated world's, still checked: sources and
// inserted elements of the wrong shape or size are dropped), and the component's front-end files counted in the
// site's copy (links not followed, node_modules left out).
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseReport, shiftNodes } from '../../../../src/core/measure/browser/pageScript';
import { countFrontEndFiles } from '../../../../src/core/measure/browser/pageExtras';

describe('browser: shift reports and front-end files', () => {
  it('a shift report keeps its named nodes, checked and capped; one of the wrong shape keeps none', () => {
    const r = parseReport(JSON.stringify({ k: 'shift', t: 1500, v: 0.148, s: [{ n: 'div#calib-content', a: ['#calib-content', 7, '#calib-stage'] }, { n: 5 }, null], i: [{ n: 'div', a: [] }] }));
    assert.ok(r && r.k === 'shift');
    assert.deepEqual(shiftNodes(r), { sources: [{ node: 'div#calib-content', names: ['#calib-content', '#calib-stage'] }], inserted: [{ node: 'div', names: [] }] });
    const long = parseReport(JSON.stringify({ k: 'shift', t: 1, v: 0.1, s: Array.from({ length: 9 }, () => ({ n: 'x'.repeat(500), a: Array(30).fill('.y') })) }));
    assert.ok(long && long.k === 'shift');
    const n = shiftNodes(long);
    assert.deepEqual([n.sources?.length, n.sources?.[0].node.length, n.sources?.[0].names.length, n.inserted], [5, 120, 12, undefined]);
    assert.deepEqual(shiftNodes(parseReport(JSON.stringify({ k: 'shift', t: 1, v: 0.1, s: 'div' })) as never), {});
    assert.equal(parseReport(JSON.stringify({ k: 'shift', t: 1, v: null })), undefined);
  });

  it('counts scripts, styles, images and fonts under the component\'s folder; not through a link, not in node_modules', async () => {
    const site = await fs.mkdtemp(path.join(os.tmpdir(), 'wpb-frontend-'));
    const root = path.join(site, 'wp-content', 'plugins', 'acme');
    const outside = path.join(site, 'elsewhere');
    await fs.mkdir(path.join(root, 'assets', 'img'), { recursive: true });
    await fs.mkdir(path.join(root, 'node_modules', 'x'), { recursive: true });
    await fs.mkdir(outside);
    for (const f of ['acme.php', 'assets/app.js', 'assets/app.min.css', 'assets/img/hero.webp', 'assets/font.woff2', 'readme.txt', 'node_modules/x/index.js']) await fs.writeFile(path.join(root, f), 'x');
    await fs.writeFile(path.join(outside, 'far.js'), 'x');
    await fs.symlink(outside, path.join(root, 'linked'));
    assert.equal(await countFrontEndFiles(site, ['/wp-content/plugins/acme/']), 4);
    assert.equal(await countFrontEndFiles(site, ['/wp-content/plugins/none/', '/wp-content/mu-plugins/acme.php']), 0);
  });
});
