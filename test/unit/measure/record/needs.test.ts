// An add-on measured without its parent (Requires Plugins: woocommerce, or only its own admin notice): "did nothing
// measurable here — it needs …" instead of grade A when every figure is noise; its cost and the need when it costs
// something; the same words in the table, the JSON and the editor's grade text.
import * as assert from 'node:assert/strict';
import { adminNotices, nothingMeasurable, ownNeedsNotice, parentsFirst, withNeeds } from '../../../../src/core/measure/record/needs';
import { measureTable } from '../../../../src/core/report/measureText';
import { localGradeText } from '../../../../src/core/present/local';
import { localRecord } from '../../helpers/localRecords';

describe('measure: an add-on whose parent is missing', () => {
  it('every figure within noise and Requires Plugins: no grade, "did nothing measurable here — it needs woocommerce", in the table, the JSON and the editor', () => {
    const r = withNeeds(localRecord('Shop add-on', 0.2, 3, 0), ['woocommerce'], undefined);
    assert.equal(r.speed_score, null);
    assert.deepEqual(r.local.needs, {
      plugins: ['woocommerce'],
      did_nothing: true,
      note: 'did nothing measurable here — it needs woocommerce (its Requires Plugins header), which this site does not have',
    });
    const text = measureTable(r);
    assert.match(text, /^Did nothing measurable here — it needs woocommerce \(its Requires Plugins header\), which this site does not have: no grade\.$/m);
    assert.doesNotMatch(text, /Grade A|No grade: the activation context/);
    assert.match(JSON.stringify(r), /"needs":\{"plugins":\["woocommerce"\],"did_nothing":true/);
    assert.match(localGradeText(r), /needs woocommerce/);
  });

  it('it costs something: the figures and the grade stand, and the need is said', () => {
    const r = withNeeds(localRecord('Shop add-on', 0.2, 300, 1), ['woocommerce'], undefined);
    assert.equal(r.speed_score?.grade, 'A');
    assert.equal(r.local.needs?.did_nothing, false);
    assert.equal(r.local.needs?.note, 'it needs woocommerce (its Requires Plugins header), which this site does not have: the figures are what it costs without it');
    assert.match(measureTable(r), /^Grade A — estimated[^\n]*\nNeeds: it needs woocommerce .*without it\.$/m);
  });

  it('no header: its own admin notice (not one the clean site shows too) says what it needs', () => {
    const clean = '<div class="notice notice-warning"><p>WordPress 9.9 is available! Please update now.</p></div>';
    const page = `${clean}<div id="x" class="notice notice-error is-dismissible"><p><strong>Calibration Pro</strong> requires the <em>Calibration</em> theme &amp; its &quot;core&quot;.</p></div><div class="wrap">no notice</div>`;
    const notices = adminNotices(page);
    assert.deepEqual(notices, ['WordPress 9.9 is available! Please update now.', 'Calibration Pro requires the Calibration theme & its "core".']);
    const own = ownNeedsNotice(notices, adminNotices(clean));
    assert.equal(own, 'Calibration Pro requires the Calibration theme & its "core".');
    assert.equal(ownNeedsNotice(['Thanks for installing! Rate us.'], []), undefined, 'a notice about something else is no need');
    // A real theme's welcome notice (Astra's): it asks to install something, but the theme needs nothing.
    assert.equal(ownNeedsNotice(['Thank you for installing Astra! Install the Starter Templates plugin to get started. Get Started'], []), undefined, 'a welcome notice is no need');
    assert.ok(ownNeedsNotice(['You need to activate the Elementor plugin.'], []));
    assert.ok(ownNeedsNotice(['Stripe Gateway: WooCommerce is not active.'], []));
    const r = withNeeds(localRecord('Calibration Pro', 0, 0, 0), undefined, own);
    assert.deepEqual(r.local.needs, { plugins: [], notice: own, did_nothing: true, note: `did nothing measurable here — it needs what its own admin notice says: "${own}"` });
    assert.equal(r.speed_score, null);
  });

  it('nothing needed: the record is unchanged (grade A for a plugin that does little is still grade A)', () => {
    const r = localRecord('Tiny', 0.1, 2, 0);
    assert.equal(withNeeds(r, undefined, undefined), r);
    assert.equal(withNeeds(r, [], undefined), r);
  });

  it('within noise means: 0 queries and memory inside its floor everywhere, TTFB not above its noise in every context; a context not measured is left aside', () => {
    assert.equal(nothingMeasurable(localRecord('a', 0.5, 10, 0)), true);
    assert.equal(nothingMeasurable(localRecord('b', 0.5, 10, 1)), false, 'one query is a cost');
    assert.equal(nothingMeasurable(localRecord('c', 0.5, 40, 0)), false, '40 KB is a cost');
    assert.equal(nothingMeasurable(localRecord('d', 5, 0, 0)), false, '5 ms outside the spread in every context is a cost');
    const oneContext = localRecord('d2', 0, 0, 0);
    oneContext.contexts.activation = { ...oneContext.contexts.activation!, ttfb_delta_ms: 17.5 };
    assert.equal(nothingMeasurable(oneContext), true, 'one context slower than its spread (a few rounds on a busy machine) is not');
    assert.equal(nothingMeasurable(localRecord('e', 0, 0, 0, 'fatal')), true);
  });
});

describe('measure --site: the order of the activations', () => {
  const m = (slug: string, requires?: string[]) => ({ slug, requires });
  it('each plugin after the members its Requires Plugins names (WordPress 6.5+ refuses it before them), otherwise as found', () => {
    const members = [m('facetwp-wc', ['woocommerce']), m('astra-addon'), m('wc-add-on-b', ['woocommerce', 'facetwp-wc']), m('woocommerce')];
    assert.deepEqual(parentsFirst(members, (x) => x).map((x) => x.slug), ['woocommerce', 'facetwp-wc', 'astra-addon', 'wc-add-on-b']);
  });
  it('a parent not among them or a loop changes nothing and loses no member', () => {
    const members = [m('a', ['b']), m('b', ['a']), m('c', ['missing'])];
    assert.deepEqual(parentsFirst(members, (x) => x).map((x) => x.slug), ['b', 'a', 'c']);
  });
});
