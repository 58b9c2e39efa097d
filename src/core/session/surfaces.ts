// What each VS Code surface shows, decided here over the session (no vscode): the hover's notice, the diagnostic of a
// declaring range, the status bar's quota text. The glue only turns these into vscode objects.
import { isoTime } from '../model';
import { formatCount, formatMemoryKb, formatMs, formatQuota, isWorseThan, plural } from '../present/format';
import { l10n } from '../l10n';
import { apiBenchmarked, localDiagnosticMessage, localHoverSection, measurableSource, measureLink } from '../present/local';
import { hoverMarkdown } from '../present/outcome';
import { siteHoverSection, siteMember } from '../present/siteLocal';
import type { SiteComponentResult } from '../measure/siteRun/siteRecord';
import type { SiteResult } from './siteResults';
import { contains } from './localResults';
import { lookupExplanation, lookupNote } from '../scan/lookup';
import { versionsNote } from '../versions';
import type { ComponentEntry, WorkspaceSession } from './session';

/** The hover (and tree tooltip) markdown of a component: untrusted, every API string escaped by hoverMarkdown. */
export function componentHover(session: WorkspaceSession, entry: ComponentEntry, file?: string): string {
  let notice: string | undefined;
  if (!session.hasApiUrl) notice = l10n.t('No API address set: run "WP Bench: Set API Address".');
  else if (!session.hasKey) notice = l10n.t('No API key set: run "WP Bench: Set API Key".');
  else if (session.isIgnored(entry.slug, file)) notice = l10n.t('Ignored in this workspace (wpBench.ignore).');
  else if (entry.lookup !== 'yes' && !session.outcome(entry.kind, entry.slug)) {
    // Measured here, it is no longer "unknown in the site total": the short reason, and what the total counts.
    notice = session.localResult(entry.kind, entry.slug) ? l10n.t('Not looked up ({0}); the site total counts its local measurement.', lookupNote(entry.lookup)) : lookupExplanation(entry);
  }
  else if (entry.possibleFork) notice = l10n.t('Its Update URI says this copy does not come from wordpress.org: the numbers are for the wordpress.org item.');
  if (entry.locations.every((l) => l.source === 'theme-parent')) {
    const inRepo = l10n.t('The parent theme of a child theme here; it is not in this repository (WordPress loads it with the child).');
    notice = notice ? `${inRepo} ${notice}` : inRepo;
  }
  const differ = versionsNote(entry.versions);
  if (differ) notice = notice ? `${notice} ${differ}` : differ;
  const outcome = session.outcome(entry.kind, entry.slug);
  const lines = [hoverMarkdown(entry.kind, entry.slug, outcome, { notice, name: entry.name })];
  // Measure Locally is offered (a command link, the only command the glue trusts) in a trusted workspace, for a
  // component whose files are here.
  const link = session.trusted && measurableSource(entry) !== undefined;
  const local = session.localResult(entry.kind, entry.slug);
  const api = apiBenchmarked(outcome);
  if (local) lines.push(...localHoverSection(local, api, { link }));
  else if (link && !api) lines.push('', `${measureLink(entry.kind, entry.slug)} — ${l10n.t('runs its PHP in a throwaway WordPress on this machine')}`);
  // Measured as part of its site (Measure Site Locally): what it adds there beside what it costs alone.
  const site = siteOf(session, entry);
  if (site) lines.push(...siteHoverSection(site.result, site.member));
  return lines.join('\n');
}

/** The site measurement shown (the latest in the open folders) when it holds the component, and its entry there. */
export function siteOf(session: WorkspaceSession, entry: ComponentEntry): { result: SiteResult; member: SiteComponentResult } | undefined {
  const result = session.siteResult();
  const member = siteMember(result, entry.kind, entry.slug);
  // The same component: declared inside the measured site's folder (not a namesake elsewhere in a monorepo).
  if (!result || !member || !entry.locations.some((l) => contains(result.root, l.file))) return undefined;
  return { result, member };
}

export interface DiagnosticSpec {
  severity: 'warning' | 'information' | 'hint';
  code: 'grade-below-threshold' | 'not-benchmarked' | 'not-in-dataset' | 'local-grade-below-threshold';
  message: string;
}

/** The diagnostic on one declaring range, or null (grades at or above the minimum get none: hover and tree show them). */
export function componentDiagnostic(session: WorkspaceSession, entry: ComponentEntry, file: string): DiagnosticSpec | null {
  if (session.isIgnored(entry.slug, file)) return null;
  const outcome = session.outcome(entry.kind, entry.slug);
  const result = outcome?.result;
  // Without the API's grade, a local measurement's estimated grade is judged (and says it was measured locally).
  const local = session.localResult(entry.kind, entry.slug);
  if (local && result?.state !== 'benchmarked') {
    const message = localDiagnosticMessage(local, session.minimumGrade(file));
    if (message) return { severity: 'warning', code: 'local-grade-below-threshold', message };
  }
  if (!result) return null;
  const stale = (message: string) => (outcome.stale ? l10n.t('{0} (cached data, stale)', message) : message);
  if (result.state === 'not-in-dataset') return { severity: 'hint', code: 'not-in-dataset', message: stale(l10n.t('{0} is not in the WP Bench dataset.', entry.slug)) };
  if (result.state === 'not-benchmarked') return { severity: 'information', code: 'not-benchmarked', message: stale(l10n.t('{0} is known to WP Bench but not benchmarked yet.', result.record.name)) };
  const r = result.record;
  const minimum = session.minimumGrade(file);
  if (!isWorseThan(r.grade, minimum)) return null;
  const a = r.contexts.activation;
  const grade = l10n.t('{0}: performance grade {1} (score {2}), below the minimum {3}.', r.name, r.grade ?? '?', r.score ?? '?', minimum);
  const cost = a
    ? ` ${plural(
        Math.round(a.queriesDelta),
        l10n.t('Activation adds {0} TTFB, {1} memory, 1 query.', formatMs(a.ttfbDeltaMs), formatMemoryKb(a.memoryDeltaKb)),
        l10n.t('Activation adds {0} TTFB, {1} memory, {2} queries.', formatMs(a.ttfbDeltaMs), formatMemoryKb(a.memoryDeltaKb), formatCount(a.queriesDelta)),
      )}`
    : '';
  return { severity: 'warning', code: 'grade-below-threshold', message: stale(`${grade}${cost}`) };
}

export interface QuotaStatus {
  text: string;
  tooltip: string;
  level: 'ok' | 'warning' | 'error';
  command: string;
  /** What a screen reader says (no icon names). */
  label: string;
}

/** The status bar's quota item: used / limit from the rate-limit headers, the block after a 429, what to set up. */
export function quotaStatus(session: WorkspaceSession): QuotaStatus {
  const item = (text: string, tooltip: string, level: QuotaStatus['level'], command: string, label: string): QuotaStatus => ({ text, tooltip, level, command, label });
  // Not set up yet is not a warning: a quiet invitation.
  if (!session.hasApiUrl) return item(`$(gear) ${l10n.t('Set up WP Bench')}`, l10n.t('WP Bench needs the API address from your subscription e-mail. Click to set it.'), 'ok', 'wpBench.setApiUrl', l10n.t('WP Bench is not set up: set the API address'));
  if (session.apiUrlProblem) return item(`$(error) ${l10n.t('WP Bench: API address invalid')}`, session.apiUrlProblem.message, 'error', 'wpBench.setApiUrl', l10n.t('WP Bench: the API address is invalid. {0}', session.apiUrlProblem.message));
  if (!session.hasKey) return item(`$(key) ${l10n.t('Set up WP Bench')}`, l10n.t('WP Bench needs your API key (stored in the OS keychain). Click to set it.'), 'ok', 'wpBench.setApiKey', l10n.t('WP Bench is not set up: set the API key'));
  const q = session.quota;
  const blocked = session.blockedUntil;
  const reset = q?.resetAt ?? blocked;
  const resetIso = isoTime(reset);
  const resetText = resetIso ? l10n.t('resets {0}', resetIso.slice(0, 10)) : l10n.t('reset date unknown');
  const rawTier = q?.tier ?? session.lastAccount?.tier ?? null;
  const tier = rawTier ? rawTier.charAt(0).toUpperCase() + rawTier.slice(1) : null;
  const used = q ? l10n.t('{0} requests used this month', formatQuota(q.used, q.limit)) : l10n.t('usage not known yet');
  const lines = [tier ? l10n.t('WP Bench quota · {0}', tier) : l10n.t('WP Bench quota'), used, resetText];
  if (isoTime(q?.observedAt)) lines.push(l10n.t('as of {0}', new Date(q!.observedAt).toLocaleTimeString()));
  lines.push(l10n.t('Click to refresh (free: /me is not counted).'));
  if (blocked !== null) {
    return item(`$(error) ${l10n.t('{0} — quota used up', q ? formatQuota(q.used, q.limit) : 'WP Bench')}`, [l10n.t('Monthly quota used up: no lookups until the reset. Cached data stays visible.'), ...lines].join('\n'), 'error', 'wpBench.showAccount', l10n.t('WP Bench quota used up, {0}; no lookups until then', resetText));
  }
  if (!q) return item('$(dashboard) WP Bench', lines.join('\n'), 'ok', 'wpBench.showAccount', l10n.t('WP Bench quota: {0}', used));
  const ratio = q.limit && q.used !== null ? q.used / q.limit : 0;
  const level = q.remaining === 0 ? 'error' : ratio >= 0.9 ? 'warning' : 'ok';
  return item(`$(dashboard) ${formatQuota(q.used, q.limit)}`, lines.join('\n'), level, 'wpBench.showAccount', l10n.t('WP Bench quota: {0}, {1}', used, resetText));
}
