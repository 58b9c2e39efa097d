// The flame graph of a local profile (WP Bench: Show Flame Graph): the webview's body (escaped HTML) and the data its
// script draws (src/webview/flame.ts). One merged call tree per context, as `measure --profile` recorded it; the
// component's frames are marked so the script colours them apart and opens their line on a click.
import { l10n } from '../l10n';
import type { LocalResult } from '../measure/record/method';
import type { FlameNode } from '../measure/profile/types';
import { CONTEXT_NAMES, type ContextName } from '../model';
import { contextLabel, escapeHtml } from './outcome';
import { formatInstructions } from './format';

export interface FlameViewData {
  /** the contexts with a tree (a context not measured, or an older profile, has none) */
  trees: Partial<Record<ContextName, FlameNode>>;
  context: ContextName;
  /** what the values count (`measure --profile --instructions`: 'instructions'; absent: ms) */
  unit?: 'instructions';
  /** a function to show: its frames are marked and the largest selected */
  focus?: { file: string; line: number };
  labels: {
    contexts: Record<ContextName, string>;
    /** "{0} — {1} per request, {2} of the sampled time" */
    detail: string;
    /** "{0}:{1}" location of a component frame, "{0}" of another */
    openable: string;
    root: string;
    zoomed: string;
    nothing: string;
  };
}

const ms = (x: number) => `${x >= 100 ? Math.round(x) : x.toFixed(1)} ms`;
const cost = (x: number, unit: 'ms' | 'instructions' | undefined) => (unit === 'instructions' ? formatInstructions(x) : ms(x));

/** The context drawn first: the asked one when it has a tree, else the one where the component spends the most. */
function firstContext(local: LocalResult, asked?: ContextName): ContextName {
  const p = local.record.profile!;
  if (asked && p.contexts[asked]?.flame) return asked;
  const withTree = CONTEXT_NAMES.filter((c) => p.contexts[c]?.flame);
  return withTree.sort((a, b) => (p.contexts[b]!.component_ms ?? 0) - (p.contexts[a]!.component_ms ?? 0))[0] ?? 'homepage';
}

export function flameView(local: LocalResult, name: string, opts: { context?: ContextName; focus?: { file: string; line: number } } = {}): { body: string; data: FlameViewData } {
  const p = local.record.profile;
  const trees: FlameViewData['trees'] = {};
  for (const c of CONTEXT_NAMES) {
    const t = p?.contexts[c]?.flame;
    if (t) trees[c] = t;
  }
  const context = p ? firstContext(local, opts.context) : 'homepage';
  const parts: string[] = [];
  parts.push(`<header><h1>${escapeHtml(l10n.t('Flame graph: {0}', name))}</h1>`);
  const byInstructions = p?.unit === 'instructions';
  if (p) {
    parts.push(
      `<p class="sub">${escapeHtml(
        byInstructions
          ? l10n.t('{0}, {1} counted requests per context. Width: CPU instructions per request, everything a function calls included; only the component’s functions are drawn (what they run in WordPress and PHP is in their width).', p.profiler, p.rounds)
          : l10n.t('{0}, a sample every {1} ms, {2} profiled requests per context. Width: wall-clock time per request, everything a frame calls included.', p.profiler, p.period_ms, p.rounds),
      )}</p>`,
    );
  }
  if (local.stale) parts.push(`<p class="stale">${escapeHtml(l10n.t('Stale: its files changed since it was profiled. Profile it again for figures of the code as it is now.'))}</p>`);
  parts.push('</header>');
  if (!p || !Object.keys(trees).length) {
    parts.push(`<p>${escapeHtml(p ? l10n.t('This profile has no call tree to draw (it was taken by an older version of WP Bench). Run WP Bench: Profile Locally again.') : l10n.t('Not profiled yet. Run WP Bench: Profile Locally.'))}</p>`);
    return { body: parts.join('\n'), data: { trees, context, labels: labels(byInstructions) } };
  }
  const buttons = CONTEXT_NAMES.map((c) => {
    const x = p.contexts[c];
    const has = !!trees[c];
    const figure = x ? l10n.t('{0}: {1} of {2}', contextLabel(c), cost(x.component_ms, p.unit), cost(x.sampled_ms, p.unit)) : l10n.t('{0}: not measured', contextLabel(c));
    return `<button type="button" data-context="${c}" aria-pressed="${c === context}"${has ? '' : ' disabled'}>${escapeHtml(figure)}</button>`;
  }).join('');
  parts.push(`<div class="switches"><div role="group" aria-label="${escapeHtml(l10n.t('Context: the component’s time of all sampled time per request'))}">${buttons}</div><button type="button" id="wpb-reset" class="secondary" disabled>${escapeHtml(l10n.t('Reset zoom'))}</button></div>`);
  parts.push(
    `<p class="legend"><span class="swatch comp" aria-hidden="true"></span>${escapeHtml(l10n.t('{0}: its own code (a click opens the line)', name))}` +
      `<span class="swatch core" aria-hidden="true"></span>${escapeHtml(l10n.t('WordPress, PHP and other plugins (a click zooms in)'))}</p>`,
  );
  parts.push(
    `<p class="note">${escapeHtml(
      byInstructions
        ? l10n.t('Keyboard: arrows move between frames (down: callee, up: caller, left and right: siblings), Enter opens or zooms, Z zooms in, Escape shows the whole request again.')
        : l10n.t('Keyboard: arrows move between frames (down: callee, up: caller, left and right: siblings), Enter opens or zooms, Z zooms in, Escape shows the whole request again. Frames under 0.05 ms per request are left out: a 1 ms sampling period cannot see them reliably.'),
    )}</p>`,
  );
  parts.push(`<p id="wpb-detail" aria-live="polite"></p>`);
  parts.push(`<p id="wpb-zoom" class="sub" aria-live="polite"></p>`);
  parts.push(`<div id="wpb-flame" role="tree" aria-label="${escapeHtml(l10n.t('Flame graph of {0}', name))}"></div>`);
  return { body: parts.join('\n'), data: { trees, context, ...(byInstructions ? { unit: 'instructions' as const } : {}), ...(opts.focus ? { focus: opts.focus } : {}), labels: labels(byInstructions) } };
}

function labels(byInstructions = false): FlameViewData['labels'] {
  return {
    contexts: Object.fromEntries(CONTEXT_NAMES.map((c) => [c, contextLabel(c)])) as Record<ContextName, string>,
    detail: byInstructions ? l10n.t('{0} — {1} per request, {2} of the request’s instructions') : l10n.t('{0} — {1} per request, {2} of the sampled time'),
    openable: l10n.t('{0} (line {1}): Enter opens it'),
    root: byInstructions ? l10n.t('The whole request') : l10n.t('All sampled code'),
    zoomed: l10n.t('Zoomed into {0}. Escape or Reset zoom shows the whole request.'),
    nothing: l10n.t('Nothing was sampled in this context.'),
  };
}
