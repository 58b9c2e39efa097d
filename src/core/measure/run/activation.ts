// The one-time activation of the component, measured apart from the rounds: the time and memory of its activation
// hook, and what it means when activating it fails or WordPress refuses it.
import { crypto } from '../../lazyNode';
import type { MeasuredComponent } from '../component/component';
import type { LocalRecord } from '../record/method';
import { ACTIVATE_PATH } from '../site/site';
import { MeasureError } from '../options/runOptions';
import { htmlText, phpErrorText, readProbe, type LiveSite } from '../site/siteClient';
import { limitError, markLog, newEntries, orLimitError, sayEntries } from './phpLog';

/**
 * Activates one copy (each copy in its own request: two copies may declare the same functions, so one request never
 * loads both). Throws MeasureError (7) when activating it breaks WordPress or WordPress refuses it.
 */
export async function activate(
  live: LiveSite,
  wpVersion: string,
  progress: (line: string) => void,
  side: 'measured' | 'ref',
  c: MeasuredComponent,
  extraHeaders: Record<string, string> = {},
): Promise<NonNullable<LocalRecord['local']['activation_hook']>> {
  const { site, srv, signal, get, serverDied } = live;
  progress(`activating ${c.kind} ${c.slug}${side === 'ref' ? ' (baseline copy)' : ''}`);
  const actId = crypto().randomBytes(8).toString('hex');
  const who = `the ${c.kind}${side === 'ref' ? ' (baseline copy)' : ''}`;
  await markLog(site);
  const act = await get(`${ACTIVATE_PATH}?key=${site.key}`, { 'X-WPBench-Req': actId, 'X-WPBench-Side': side, ...extraHeaders }).catch(async (e) => {
    throw await orLimitError(site, who, serverDied(e));
  });
  const actProbe = await readProbe(site, actId, signal);
  // What PHP said during the activation (its warnings, notices, deprecations, errors), each once, escaped; a limit
  // of the sandbox reached ends the run.
  const logged = await newEntries(site);
  const limit = limitError(site, who, logged, actProbe?.error ?? '');
  if (limit) throw limit;
  sayEntries(site, logged, `activating ${who}`, progress);
  let hook: LocalRecord['local']['activation_hook'] = null;
  try {
    hook = JSON.parse(act.body);
    // Rounded as every figure of the record (ms to 0.1, whole KiB).
    if (hook && typeof hook.time_ms === 'number') hook.time_ms = Math.round(hook.time_ms * 10) / 10;
    if (hook && typeof hook.memory_kb === 'number') hook.memory_kb = Math.round(hook.memory_kb);
  } catch {
    /* reported below */
  }
  const which = side === 'ref' ? ` (${c.kind} at the baseline)` : '';
  if (act.status !== 200 || actProbe?.error || !hook) {
    throw new MeasureError(
      `the ${c.kind}${which} breaks WordPress: activating it failed (status ${act.status}): ${actProbe?.error ?? (await phpErrorText(site, act.body, srv))}`,
      7,
    );
  }
  // WordPress 6.5+ activates no plugin whose Requires Plugins are not active, and a measurement's site holds only the
  // component: said as such, with the ways to measure it (older cores load it without them, as before 6.5).
  const code = (hook as { error_code?: unknown }).error_code;
  delete (hook as { error_code?: unknown }).error_code;
  if (hook.error && code === 'plugin_missing_dependencies') {
    const needs = c.requires?.length ? ` (${c.requires.join(', ')})` : '';
    throw new MeasureError(
      `WordPress ${wpVersion} refused to activate the ${c.kind}${which} without the plugins its Requires Plugins header names${needs}: ${htmlText(hook.error).replace(/^Error:\s*/, '').replace(/\.(\s.*)?$/, '')}. A measurement's throwaway site holds only the ${c.kind}: measure it in a site with them (wp-bench measure SITE --site), or alone on a WordPress core before 6.5 (--wordpress DIR), where it loads without them`,
      7,
    );
  }
  if (hook.error) {
    throw new MeasureError(
      `WordPress ${wpVersion} refused to activate the ${c.kind}${which}: ${htmlText(hook.error).replace(/\.$/, "")}. To measure it, name a WordPress core and a PHP it supports: --wordpress DIR, --php BIN`,
      7,
    );
  }
  return hook;
}
