// `measure SITE --site --instructions`: every configuration's requests counted in CPU instructions (run/instructions.ts
// counts one component's sides the same way), then each member's figures as differences of those counts: alone, its
// configuration minus the clean site; in the site, the stack minus the stack without it. A count depends only on what
// PHP does, so a member that does nothing reads 0 in the site (to a few thousand instructions), as queries do.
//
// After the timed rounds two servers under callgrind (one core each) share the configurations. Each warms opcache on
// the clean site and the stack in every context first (between them they load every file the other configurations
// load), then counts each configuration's contexts SITE_INSTRUCTION_ROUNDS times; two counts that differ by more than
// SETTLED_SHARE are asked once more (the first may have compiled a file only that configuration loads), and a
// configuration whose counts still differ is named (its work depends on the time or on its own state).
import { CONTEXTS, type InstructionsInfo, type MeasureContext } from '../record/method';
import { clockStart, findCounter, withCountedServer, type CountTarget } from '../run/instructions';
import type { SiteConfig } from './sitePlan';
import { settled, siteCountInfo, SITE_INSTRUCTION_ROUNDS, type SiteCounts, type VaryingCount } from './siteCounts';


type PassOptions = Parameters<typeof withCountedServer>[0] & { configs: SiteConfig[]; failed: ReadonlySet<string> };

/** Counts every configuration (the contexts it failed in during the timed rounds left out): its counts and those that varied. */
export async function siteInstructionsPass(o: PassOptions): Promise<{ counts: SiteCounts; varying: VaryingCount[] }> {
  const at = clockStart(new Date());
  const target = (c: SiteConfig): CountTarget => ({ id: c.id, headers: { 'X-WPBench-Config': c.id }, label: c.id === 'clean' ? 'WordPress without the components' : `configuration ${c.id}` });
  const warmers = o.configs.filter((c) => c.id === 'clean' || c.id === 'stack');
  const queue = [...o.configs];
  const total = queue.length * CONTEXTS.length;
  o.progress(`counting instructions: ${o.configs.length} configurations × ${CONTEXTS.length} contexts × ${SITE_INSTRUCTION_ROUNDS} requests under callgrind, on two servers${o.counter.faketime ? `, each one's clock starting at ${at} UTC, at a tenth of real speed` : " (libfaketime not found: the machine's clock, time-based work may vary the counts)"}`);
  const counts: SiteCounts = {};
  const varying: VaryingCount[] = [];
  let done = 0;
  const worker = (k: number) =>
    withCountedServer(o, `counts-site-${k}`, at, async (ask) => {
      for (const ctx of CONTEXTS) for (const w of warmers) if (!o.failed.has(`${w.id} ${ctx}`)) await ask(target(w), ctx);
      for (let c = queue.shift(); c; c = queue.shift()) {
        const mine: Partial<Record<MeasureContext, number[]>> = {};
        for (const ctx of CONTEXTS) {
          done++;
          if (o.failed.has(`${c.id} ${ctx}`)) continue;
          o.progress(`counting instructions: ${done} of ${total} (${c.id}, ${ctx})`);
          const xs: number[] = [];
          let failed = false;
          for (let i = 0; i < SITE_INSTRUCTION_ROUNDS + 1 && !failed; i++) {
            if (i === SITE_INSTRUCTION_ROUNDS && settled(xs)) break;
            const n = await ask(target(c), ctx);
            if (n === null) failed = true;
            else if (n !== undefined) xs.push(n);
          }
          if (failed) continue;
          const last = xs.slice(-SITE_INSTRUCTION_ROUNDS);
          if (last.length < SITE_INSTRUCTION_ROUNDS) continue;
          if (!settled(last)) varying.push({ config: c.id, context: ctx, counts: [Math.min(...last), Math.max(...last)] });
          mine[ctx] = last;
        }
        counts[c.id] = mine;
      }
    });
  await Promise.all([worker(0), worker(1)]);
  return { counts, varying };
}

/**
 * `--site --instructions` after the timed rounds: the counts, or undefined (said) where this machine cannot count.
 * `measured(id, ctx)`: whether that configuration has figures there (one that failed is not counted).
 */
export async function countSite(
  o: Omit<PassOptions, 'counter' | 'failed'> & { runtime: string },
  measured: (id: string, ctx: MeasureContext) => boolean,
): Promise<{ counts: SiteCounts; varying: VaryingCount[]; how: InstructionsInfo } | undefined> {
  const counter = o.runtime === 'php' ? findCounter(o.env) : { why: 'instructions are counted on the native php runtime only' };
  if ('why' in counter) {
    o.progress(`warning: ${counter.why}; measured without instructions`);
    return undefined;
  }
  const failed = new Set(o.configs.flatMap((c) => CONTEXTS.filter((ctx) => !measured(c.id, ctx)).map((ctx) => `${c.id} ${ctx}`)));
  const { counts, varying } = await siteInstructionsPass({ ...o, counter, failed });
  for (const v of varying) o.progress(`warning: configuration ${v.config} did different work from one counted request to the next (${v.context}: ${v.counts[0].toLocaleString('en-US')}–${v.counts[1].toLocaleString('en-US')} instructions): something in it depends on the time or on its own state; its counts are marked`);
  return { counts, varying, how: siteCountInfo(counter.faketime) };
}
