// The rounds of `measure SITE --site` (see siteRun.ts): every configuration asked in turn until its TTFB settles or
// the cap, a redirect asked again where one-time redirects settle, and how many rounds each configuration took.
import { CONTEXTS, type MeasureContext } from '../record/method';
import type { Outcome } from '../run/rounds';
import { MeasureError } from '../options/runOptions';
import { configOrder, SITE_MIN_ROUNDS, ttfbSettled, type SiteConfig, type SiteSamples } from './sitePlan';

/**
 * The rounds: in each, every context, every configuration still open, once, in a rotated order. Every configuration
 * is asked as often as the others: work a plugin does every so many seconds (a short transient) then falls alike on
 * the stack and the stack without a member (the stack asked again every 20 others saw it less often: a real site's
 * members read 2–3 activation queries low). Every configuration is asked at least SITE_MIN_ROUNDS times (its memory and
 * queries checked between them); after that only those whose TTFB has not settled (ttfbSettled), and the clean site and
 * the stack while any other is open, up to `rounds`. A configuration that fails in a context has no figure there; the
 * clean site failing ends the run. Returns the measured rounds' samples and how many rounds each took.
 */
export async function siteRounds(
  configs: SiteConfig[],
  ask: (cfg: SiteConfig, ctx: MeasureContext) => Promise<Outcome>,
  p: { rounds: number; warmup: number; check: () => void; progress: (l: string) => void },
): Promise<{ samples: SiteSamples; taken: number[] }> {
  const { rounds, warmup, check, progress } = p;
  const samples: SiteSamples = {};
  const failed = new Map<string, string>();
  const min = Math.min(rounds, SITE_MIN_ROUNDS);
  const list = (id: string, ctx: MeasureContext) => samples[id]?.[ctx] ?? [];
  const baseline = (c: SiteConfig) => c.id === 'clean' || c.id === 'stack';
  // Open: not failed there, and under the minimum, or not settled and under the cap.
  const open = (c: SiteConfig, ctx: MeasureContext, r: number) => {
    if (failed.has(`${c.id} ${ctx}`)) return false;
    if (r < warmup + min) return true;
    if (r >= warmup + rounds) return false;
    return !ttfbSettled(list(c.id, ctx).map((x) => x.ttfbMs), min);
  };
  const openIn = (ctx: MeasureContext, r: number) => {
    const others = new Set(configs.filter((c) => !baseline(c) && open(c, ctx, r)));
    // The two baselines are asked while anything measured against them is (or while their own TTFB is unsettled).
    return configs.filter((c) => (baseline(c) ? others.size > 0 || open(c, ctx, r) : others.has(c)));
  };
  // The time left, from the requests so far and those still to ask (as if every configuration open this round took the cap).
  const t0 = Date.now();
  let asked = 0;
  const left = (r: number, planned: number, rest: number) => {
    if (asked < 5) return '';
    const s = ((Date.now() - t0) / asked) * (rest + planned * Math.max(0, warmup + rounds - r - 1)) / 1000;
    return `, about ${s >= 90 ? `${Math.round(s / 60)} min` : `${Math.max(1, Math.round(s))} s`} left`;
  };
  for (let r = 0; r < warmup + rounds; r++) {
    const warm = r < warmup;
    const plan = CONTEXTS.map((ctx) => ({ ctx, order: configOrder(openIn(ctx, r), r) }));
    if (plan.every((x) => !x.order.length)) break;
    const planned = plan.reduce((a, x) => a + x.order.length, 0);
    let rest = planned;
    for (const { ctx, order } of plan) {
      for (const [i, cfg] of order.entries()) {
        check();
        rest--;
        if (failed.has(`${cfg.id} ${ctx}`)) continue;
        progress(`configuration ${i + 1} of ${order.length}, ${warm ? 'warm-up' : 'round'} ${warm ? r + 1 : r - warmup + 1}/${warm ? warmup : rounds}: ${ctx}${left(r, planned, rest)}`);
        // In the warm-up a redirect is asked again, up to four times: one-time redirects (one wizard after another)
        // settle there, not in a measured round.
        const out = await throughRedirects(ask, cfg, ctx, warm ? 4 : 0);
        asked++;
        if ('fail' in out) {
          if (cfg.id === 'clean') throw new MeasureError(`WordPress itself fails without the site's components (${ctx}: ${out.fail.reason})`, 7);
          if (!warm) failed.set(`${cfg.id} ${ctx}`, out.fail.reason);
          continue;
        }
        if (warm) continue;
        ((samples[cfg.id] ??= {})[ctx] ??= []).push({ ...out.ok, round: r });
      }
    }
  }
  // A configuration that failed in a context has no figure there.
  for (const key of failed.keys()) {
    const [id, ctx] = key.split(' ');
    delete samples[id]?.[ctx as MeasureContext];
  }
  // The measured rounds of each configuration and context (the baselines' extra asks within a round not counted).
  const taken = configs.filter((c) => !baseline(c)).flatMap((c) => CONTEXTS.map((ctx) => list(c.id, ctx).length).filter((n) => n > 0));
  return { samples, taken };
}

/** Asks, and asks again while the answer is a redirect, at most `again` more times: the last answer. */
export async function throughRedirects(ask: (cfg: SiteConfig, ctx: MeasureContext) => Promise<Outcome>, cfg: SiteConfig, ctx: MeasureContext, again: number): Promise<Outcome> {
  let out = await ask(cfg, ctx);
  for (let i = 0; i < again && 'fail' in out && out.fail.reason.startsWith('redirect'); i++) out = await ask(cfg, ctx);
  return out;
}

/** The fewest, median and most measured rounds a configuration took in a context (TTFB settled, or the cap). */
export function roundsTaken(taken: number[]): { min: number; median: number; max: number } | undefined {
  if (!taken.length) return undefined;
  const s = [...taken].sort((a, b) => a - b);
  return { min: s[0], median: s[s.length >> 1], max: s[s.length - 1] };
}
