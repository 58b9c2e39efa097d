// The rounds of `measure SITE --site` (see siteRun.ts): every configuration asked in turn until its TTFB settles or
// the cap, a redirect asked again where one-time redirects settle, and how many rounds each configuration took.
import { CONTEXTS, type MeasureContext } from '../record/method';
import type { Outcome } from '../run/rounds';
import { MeasureError } from '../options/runOptions';
import { configOrder, SITE_MIN_ROUNDS, ttfbSettled, ttfbUnconfirmed, type SiteConfig, type SiteSamples } from './sitePlan';

/**
 * The order of round `r` (issue 45): each figure is a difference taken round by round (sitePlan.ts), so the two
 * configurations of a pair are asked near each other in time. The stack stands in the middle of the configurations
 * without a member, the clean site in the middle of the members alone (each at most half its group away from its
 * baseline, where a list of pairs after both baselines put the last one twice the members away); the members rotate
 * round by round, and every other round runs backwards, so each is asked before its baseline in some rounds and after
 * it in others, and drift within a round falls on both sides. Every configuration is still asked once a round (asked
 * more often, the stack saw a plugin's periodic work more often than the configurations compared with it).
 */
export function pairedOrder<T extends { id: string }>(configs: readonly T[], r: number): T[] {
  const group = (base: string, prefix: string) => {
    const partners = configOrder(configs.filter((c) => c.id.startsWith(prefix)), r);
    const mid = Math.ceil(partners.length / 2);
    return [...partners.slice(0, mid), ...configs.filter((c) => c.id === base), ...partners.slice(mid)];
  };
  const grouped = [...group('clean', 'alone:'), ...group('stack', 'without:')];
  const order = [...grouped, ...configs.filter((c) => !grouped.includes(c))];
  return r % 2 ? order.reverse() : order;
}

/**
 * The rounds: in each, every context, every configuration still open, once, in the paired order (pairedOrder). Every
 * configuration is asked as often as the others: work a plugin does every so many seconds (a short transient) then
 * falls alike on the stack and the stack without a member (the stack asked again every 20 others saw it less often: a
 * real site's members read 2–3 activation queries low). Every configuration is asked at least SITE_MIN_ROUNDS times
 * (its memory and queries checked between them); after that only those whose TTFB has not settled (ttfbSettled), and
 * the clean site and the stack while any other is open, up to `rounds` (past it, the members confirming: see `open`). A
 * configuration that fails in a context has no figure there; the clean site failing ends the run. Returns the measured
 * rounds' samples and how many rounds each took.
 */
export async function siteRounds(
  configs: SiteConfig[],
  ask: (cfg: SiteConfig, ctx: MeasureContext) => Promise<Outcome>,
  p: { rounds: number; warmup: number; check: () => void; progress: (l: string) => void; confirm?: number },
): Promise<{ samples: SiteSamples; taken: number[] }> {
  const { rounds, warmup, check, progress } = p;
  const samples: SiteSamples = {};
  const failed = new Map<string, string>();
  const min = Math.min(rounds, SITE_MIN_ROUNDS);
  const list = (id: string, ctx: MeasureContext) => samples[id]?.[ctx] ?? [];
  const baseline = (c: SiteConfig) => c.id === 'clean' || c.id === 'stack';
  // Open: not failed there, and under the minimum, or not settled and under the cap; and a member whose paired
  // difference reads outside noise but not far (ttfbUnconfirmed), settled or not, until it is decided or has `confirm`
  // rounds (issue 45: SITE_CONFIRM_ROUNDS by default; an explicit --rounds is the cap itself).
  const confirmCap = Math.max(rounds, p.confirm ?? rounds);
  const open = (c: SiteConfig, ctx: MeasureContext, r: number) => {
    if (failed.has(`${c.id} ${ctx}`)) return false;
    if (r < warmup + min) return true;
    if (r >= warmup + confirmCap) return false;
    if (ttfbUnconfirmed(samples, c.id, ctx)) return true;
    return r < warmup + rounds && !ttfbSettled(list(c.id, ctx).map((x) => x.ttfbMs), min);
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
  for (let r = 0; r < warmup + confirmCap; r++) {
    const warm = r < warmup;
    // The order of every configuration of the run, the open ones asked: the progress counts in it ("configuration 7
    // of 24", a settled one skipped), so its total stays the run's.
    const full = pairedOrder(configs, r);
    const plan = CONTEXTS.map((ctx) => {
      const now = new Set(openIn(ctx, r));
      return { ctx, order: full.filter((c) => now.has(c)) };
    });
    if (plan.every((x) => !x.order.length)) break;
    const planned = plan.reduce((a, x) => a + x.order.length, 0);
    let rest = planned;
    for (const { ctx, order } of plan) {
      for (const cfg of order) {
        check();
        rest--;
        if (failed.has(`${cfg.id} ${ctx}`)) continue;
        const label = warm ? `warm-up ${r + 1}/${warmup}` : r < warmup + rounds ? `round ${r - warmup + 1}/${rounds}` : `confirming: round ${r - warmup + 1}/${confirmCap}`;
        progress(`configuration ${full.indexOf(cfg) + 1} of ${configs.length}, ${label}: ${ctx}${left(r, planned, rest)}`);
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
