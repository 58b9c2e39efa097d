// siteRun/: `wp-bench measure SITE --site`: the run (this file), its rounds (siteRounds.ts), its configurations and arithmetic (sitePlan.ts, pure),
// its record (siteRecord.ts, the shape every surface reads), the merge of `--shard` records (shards.ts) and the hint that
// a PATH `measure` was given is a site's folder (siteFolder.ts). May import run/ and every folder below it, and the
// scanner's inventory (src/core/scan); only child.ts above it imports it.
//
// `wp-bench measure SITE --site`: the site's whole stack on one throwaway WordPress, against the clean site, and
// what each component costs alone and adds in the site. The inventory is the scan's; the configurations and the
// arithmetic are sitePlan.ts's; the record's shape is siteRecord.ts's; the site is built, run and removed as every measurement is (openSite.ts).
import { INSTALLED_SOURCES } from '../../scan/merge';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { scanWorkspace } from '../../scan/workspace';
import type { DetectedComponent } from '../../model';
import { ComponentLoadingError, ComponentNotFoundError, detectComponent, type MeasuredComponent } from '../component/component';
import type { SiteComponentResult, SiteRecord } from './siteRecord';
import { CONTEXTS, type MeasureContext, type NullReason } from '../record/method';
import { track, withOpenSite } from '../run/openSite';
import { checkSidesUnchanged, measuredText, ownTables, phpErrorText, sideStates, type LiveSite } from '../site/siteClient';
import { DB_HEADER } from '../database/sideDatabases';
import { siteConfigsJson } from '../php/sitePhp';
import { requestContext, type Outcome } from '../run/rounds';
import { MeasureError, type MeasureOptions } from '../options/runOptions';
import { findEnvironment, linksAreSafe } from '../runtime/runtimeChoice';
import { buildSite, SITE_ACTIVATE_PATH } from '../site/site';
import { dropSettling, inShard, SITE_CONFIRM_ROUNDS, SITE_ROUNDS, SITE_WARMUP, siteArithmetic, siteConfigs, stateDependent, type SiteConfig } from './sitePlan';
import { underDeadline } from '../run/engine';
import { sourceHash } from '../record/cache';
import { parentsFirst } from '../record/needs';
import { roundsTaken, siteRounds, throughRedirects } from './siteRounds';
import { countSite } from './siteInstructions';
import { memberFolders, siteBrowserPass, withSiteBrowser } from './siteBrowser';
import { memberCounted, siteCounted, sumCounted } from './siteCounts';

/** WordPress's drop-ins: files of wp-content the stack leaves out (listed). */
const DROP_INS = ['advanced-cache.php', 'db.php', 'db-error.php', 'install.php', 'maintenance.php', 'object-cache.php', 'php-error.php', 'fatal-error-handler.php', 'sunrise.php', 'blog-deleted.php', 'blog-inactive.php', 'blog-suspended.php'];

/** The first line of a PHP error (its stack trace follows), at most 300 characters. */
const firstLine = (text: string) => text.split('\n')[0].slice(0, 300);

interface Member {
  d: DetectedComponent;
  c: MeasuredComponent;
}

/** The file or folder a scanned component's code is in, when it is installed in the working tree. */
export function installedAt(root: string, d: DetectedComponent): string | undefined {
  const at = d.locations.find((l) => INSTALLED_SOURCES.has(l.source));
  if (!at) return undefined;
  const file = path.join(root, ...at.file.split('/'));
  return at.source === 'theme-header' ? path.dirname(file) : file;
}

/** The theme the site runs: --theme, else the only one, else a child theme, else the first by name (said). */
function chooseTheme(themes: Member[], asked: string | undefined, progress: (l: string) => void): Member | null {
  if (asked) {
    const t = themes.find((m) => m.d.slug === asked);
    if (!t) throw new MeasureError(`--theme ${asked}: no installed theme of that folder name (found: ${themes.map((m) => m.d.slug).join(', ') || 'none'})`, 2);
    return t;
  }
  if (!themes.length) return null;
  const parents = new Set(themes.flatMap((m) => (m.c.parent ? [m.c.parent.slug] : [])));
  const candidates = themes.filter((m) => !parents.has(m.d.slug));
  const children = candidates.filter((m) => m.c.parent);
  const pick = (children.length ? children : candidates).sort((a, b) => a.d.slug.localeCompare(b.d.slug))[0] ?? themes[0];
  if (candidates.length > 1) progress(`several themes (${candidates.map((m) => m.d.slug).join(', ')}): measuring with ${pick.d.slug}; --theme SLUG picks another`);
  return pick;
}

/** The default time limit of a --site run: a 30-component site takes about 6 minutes here. */
export const SITE_TIMEOUT_S = 1800;

/** Measures the site at `o.path` (under the run's deadline: --timeout-s, Ctrl-C); throws MeasureError when it cannot. */
export async function measureSite(o: MeasureOptions & { theme?: string }): Promise<SiteRecord> {
  const started = Date.now();
  return underDeadline({ ...o, timeoutS: o.timeoutS ?? SITE_TIMEOUT_S }, (od) => run({ ...od, theme: o.theme }, started, o.progress ?? (() => undefined)));
}

/** The scan's components: those installed here detected as `measure` does, the rest listed with why not. */
async function inventory(root: string, o: MeasureOptions & { theme?: string }, progress: (l: string) => void) {
  const scan = await scanWorkspace(root, { signal: o.signal });
  const results: SiteComponentResult[] = [];
  const plugins: Member[] = [];
  const themes: Member[] = [];
  for (const d of scan.components) {
    const base = { kind: d.kind, slug: d.slug, name: d.name ?? d.slug, alone: null, in_site: null };
    const at = installedAt(root, d);
    if (!at) {
      results.push({ ...base, not_installed: true, left_out: `not installed here (declared in ${d.locations[0]?.file ?? 'the scan'}; its code is not in the working tree)` });
      continue;
    }
    try {
      const c = await detectComponent(at, o.signal);
      (d.kind === 'theme' ? themes : plugins).push({ d, c });
    } catch (err) {
      if (err instanceof ComponentNotFoundError || err instanceof ComponentLoadingError) results.push({ ...base, left_out: (err as Error).message });
      else throw err;
    }
  }
  const theme = chooseTheme(themes, o.theme, progress);
  for (const t of themes) if (t !== theme && !(theme?.c.parent && theme.c.parent.slug === t.d.slug)) results.push({ kind: 'theme', slug: t.d.slug, name: t.c.name, alone: null, in_site: null, left_out: `not the theme measured (${theme?.d.slug ?? 'none'}); --theme ${t.d.slug} measures with it` });
  // wp-content of each member (plugins/x, plugins/x.php, mu-plugins/x.php, themes/x: two levels up).
  const contentDirs = new Set([...plugins, ...themes].map((m) => path.dirname(path.dirname(m.c.source))));
  const dropIns: string[] = [];
  for (const dir of contentDirs) for (const f of DROP_INS) if (await fs.stat(path.join(dir, f)).then((s) => s.isFile(), () => false)) dropIns.push(path.relative(root, path.join(dir, f)).split(path.sep).join('/'));
  return { results, plugins, themes, theme, dropIns };
}

async function run(o: MeasureOptions & { theme?: string }, started: number, progress: (l: string) => void): Promise<SiteRecord> {
  const root = path.resolve(o.cwd, o.path);
  const { results, plugins, theme, dropIns } = await inventory(root, o, progress);
  const measuredAt = new Date().toISOString();
  // What each member's files were when the run started: the editor marks the record stale when one changes.
  // Read while the site is built (on a large site, seconds of reading); awaited when the record is made.
  const hashing = (async () => {
    const hashes = new Map<MeasuredComponent, { path: string; hash: string }>();
    for (const m of [...plugins, ...(theme ? [theme] : [])]) {
      const hash = await sourceHash(m.c, { signal: o.signal }).catch(() => undefined);
      if (hash) hashes.set(m.c, { path: path.relative(root, m.c.source).split(path.sep).join('/'), hash });
    }
    return hashes;
  })();
  hashing.catch(() => undefined);
  // The site's own WordPress (web/wp, wp, wordpress, … or the site's root itself) comes first, wherever the command
  // was run from; an explicit --wordpress or --sqlite-integration stays relative to where it was typed.
  const env = await findEnvironment(o.wordpress || o.sqliteIntegration ? o : { ...o, cwd: root });
  if (env.runtime !== 'php') throw new MeasureError('--site needs the native php runtime (Playground measures one component at a time)', 8);
  const rounds = o.rounds ?? SITE_ROUNDS;
  const warmup = o.warmup ?? SITE_WARMUP;
  const members: Member[] = [...plugins, ...(theme ? [theme] : [])];
  if (!members.length) throw new MeasureError(`no plugin or theme installed in ${root} to measure as a site`, 2);
  const regular = plugins.filter((m) => !m.c.mustUse);
  const shard = o.shard;
  const mus = plugins.filter((m) => m.c.mustUse);
  const configsFile = () => path.join(siteRoot!, 'work', 'site-configs.json');
  let siteRoot: string | undefined;
  let configs: SiteConfig[] = [];
  let targets = new Map<MeasuredComponent, { target: string; template?: string }>();
  let muFolders = new Map<MeasuredComponent, { only: string; without: string }>();
  // MariaDB/MySQL: each configuration's own database and user (a copy of the stack's tables after its activations; the
  // clean site's, of WordPress freshly installed), so what one configuration's requests write no other reads, and a
  // member can reach no configuration it does not run in. `live` once the site answers; until then (the site being
  // built) none has a database of its own yet.
  let live: LiveSite | undefined;
  const owned = new Set<string>();
  // Tables a configuration's copy could not hold (a view): said once, at the end.
  const skippedTables: string[] = [];
  const writeConfigs = async (list: SiteConfig[], copyNew = true) => {
    if (live?.site.ownTables) {
      for (const c of list) {
        // Before the activations only the clean site's are made: the others copy the stack's once it is activated.
        if (!copyNew && !owned.has(c.id)) continue;
        // Copied once; the plugins and theme set each time (a member left out changes the stack's list).
        await ownTables(live, `config:${c.id}`, { plugins: c.plugins, theme: c.theme, onSkipped: (t) => skippedTables.push(...t.filter((x) => !skippedTables.includes(x))) });
        owned.add(c.id);
      }
    }
    await fs.writeFile(configsFile(), siteConfigsJson(list));
  };
  const plan = (baseTheme: string, left: Set<MeasuredComponent>) =>
    siteConfigs(
      regular.filter((m) => !left.has(m.c)).map((m) => ({ slug: m.d.slug, target: targets.get(m.c)!.target })),
      theme && !left.has(theme.c) ? { slug: theme.d.slug, stylesheet: targets.get(theme.c)!.target, template: targets.get(theme.c)!.template ?? targets.get(theme.c)!.target } : null,
      baseTheme,
      mus.filter((m) => !left.has(m.c) && muFolders.has(m.c)).map((m) => ({ slug: m.d.slug, ...muFolders.get(m.c)! })),
    );

  return withOpenSite(
    o,
    env,
    undefined,
    async (runRoot, dbConn) => {
      siteRoot = runRoot;
      await fs.mkdir(path.join(runRoot, 'work'), { recursive: true });
      const site = await buildSite(runRoot, { core: env.core, component: members[0].c, sqlite: env.sqlite, db: dbConn, signal: o.signal, site: { members: members.map((m) => m.c), configsFile: configsFile() }, link: linksAreSafe(env) });
      targets = site.members!;
      muFolders = site.muFolders!;
      configs = plan(site.baseTheme, new Set());
      await writeConfigs(configs);
      return site;
    },
    async ({ site, running, srv, installed, cookie, db, check }) => {
      live = running;
      // The clean site's tables: WordPress as installed, before any member is activated.
      if (site.ownTables) {
        await writeConfigs(configs.filter((c) => c.id === 'clean'));
        await writeConfigs(configs, false);
      }

      const left = new Set<MeasuredComponent>();
      const leftWhy = new Map<MeasuredComponent, string>();
      // Each plugin activated once, in a request where no other plugin loads: one that fails is left out, said. Parents
      // first: WordPress 6.5+ refuses a plugin whose Requires Plugins are not active yet.
      for (const m of parentsFirst(regular, (x) => x.c)) {
        check();
        progress(`activating plugin ${m.d.slug}`);
        const res = await running.get(`${SITE_ACTIVATE_PATH}?key=${site.key}&plugin=${encodeURIComponent(targets.get(m.c)!.target)}`, { 'X-WPBench-Config': 'clean', [DB_HEADER]: '' }).catch((e) => {
          throw running.serverDied(e);
        });
        let error: string | null = null;
        try {
          error = (JSON.parse(res.body) as { error: string | null }).error;
          if (typeof error === 'string') error = measuredText(error);
        } catch {
          error = `activating it failed (status ${res.status}): ${firstLine(await phpErrorText(site, res.body, srv))}`;
        }
        if (res.status !== 200 && !error) error = `activating it failed (status ${res.status}): ${firstLine(await phpErrorText(site, res.body, srv))}`;
        if (error) {
          left.add(m.c);
          leftWhy.set(m.c, `its activation failed: ${error.replace(/<[^>]*>/g, '').slice(0, 300)}`);
          progress(`warning: ${m.d.slug} left out of the stack: ${leftWhy.get(m.c)}`);
        }
      }
      configs = plan(site.baseTheme, left);
      const ask = (cfg: SiteConfig, ctx: MeasureContext) => requestContext(running, cookie, ctx, { 'X-WPBench-Config': cfg.id });
      // One-time redirects (a welcome screen, a setup wizard: on a real site several plugins' in turn) settle on the
      // stack, still on the tables of the activations, before every other configuration's tables are copied from them:
      // each starts where a real site is after its first visits. Copied earlier, every configuration went through the
      // redirects again, and the check below took each for a failure (37 s, and a member wrongly suspected, on a real site).
      // While checking: a redirect is asked again (a setup wizard's one-time redirect is not a failure): the stack up to
      // four times (several plugins' wizards in turn: a real site's went through two before its admin answered), the
      // others once (each try of the search below is a request of its own).
      const settled = (cfg: SiteConfig, ctx: MeasureContext) => throughRedirects(ask, cfg, ctx, cfg.id === 'stack' ? 4 : 1);
      await writeConfigs(configs, false);
      for (const ctx of CONTEXTS) await settled(configs.find((c) => c.id === 'stack')!, ctx);
      await writeConfigs(configs);
      // Where a member's code is in the throwaway site ("/wp-content/plugins/acme/"), as PHP's errors name it.
      const siteFolder = (m: Member) => {
        const t = targets.get(m.c)?.target;
        if (!t || m.c.mustUse || (m.c.kind === 'plugin' && !t.includes('/'))) return undefined;
        return m.c.kind === 'theme' ? `/wp-content/themes/${t}/` : `/wp-content/plugins/${t.slice(0, t.indexOf('/'))}/`;
      };
      // Then a member that breaks the stack (or fails on its own) is left out, and the plan made again.
      for (let attempt = 0; attempt <= plugins.length + 1; attempt++) {
        let broken: MeasuredComponent | undefined;
        for (const ctx of CONTEXTS) {
          const out = await settled(configs.find((c) => c.id === 'stack')!, ctx);
          if ('ok' in out) continue;
          // A must-use plugin named in PHP's error (its Composer dependencies missing, say): taken out of the site's
          // mu-plugins folder, since no configuration can switch it off.
          const mu = mustUseIn(out.fail.php_error, mus.filter((m) => !left.has(m.c)));
          if (mu) {
            await dropMu(site.siteDir, mu.c, muFolders);
            broken = mu.c;
            leftWhy.set(mu.c, `it breaks every request (${ctx}: ${out.fail.reason}: ${firstLine(out.fail.php_error ?? '')})`);
            break;
          }
          const found = await findBreaker([...regular, ...(theme ? [theme] : []), ...mus].filter((m) => !left.has(m.c)), siteFolder, configs, settled, ctx, out.fail);
          if (found) {
            // A must-use plugin loads on every request of its folder: taken out of the throwaway site's folders.
            if (found.m.c.mustUse) await dropMu(site.siteDir, found.m.c, muFolders);
            broken = found.m.c;
            leftWhy.set(found.m.c, found.why);
          }
          if (!broken) throw new MeasureError(`the stack fails (${ctx}: ${out.fail.reason}${out.fail.php_error ? `: ${firstLine(out.fail.php_error)}` : ''}) and no single component is the cause`, 7);
          break;
        }
        if (!broken) break;
        left.add(broken);
        progress(`warning: ${leftWhy.get(broken)}: left out of the stack`);
        // The must-use plugins its loader file loads went with it.
        for (const o of mus) {
          if (!broken.mustUse || o.c === broken || o.c.mainFile !== broken.mainFile || left.has(o.c)) continue;
          left.add(o.c);
          leftWhy.set(o.c, `loaded by ${o.c.mainFile}, which was taken out (${leftWhy.get(broken)})`);
        }
        configs = plan(site.baseTheme, left);
        await writeConfigs(configs);
      }
      // --shard K/N: the clean site, the stack, and the configurations of every N-th member from the K-th (the checks
      // above ran on them all, so what is left out is the same in every shard).
      const shardOf = new Set(shard ? [...regular, ...(theme ? [theme] : []), ...mus].map(memberId).filter((_, i) => i % shard.n === shard.k - 1) : []);
      const measuredConfigs = shard ? configs.filter((c) => inShard(c.id, shardOf)) : configs;
      if (shard) progress(`shard ${shard.k}/${shard.n}: ${shardOf.size} of the members alone and in the site, ${measuredConfigs.length} configurations`);
      if (skippedTables.length) progress(`warning: not copied into each configuration's database (a view): ${skippedTables.slice(0, 5).join(', ')}${skippedTables.length > 5 ? `, and ${skippedTables.length - 5} more` : ''}; a query on it fails in those configurations`);
      if (!site.ownTables) progress('warning: on SQLite every configuration shares one database: what one writes the next reads (a real MariaDB/MySQL server gives each its own tables; --db auto or mysql://…)');
      // No member runs in the clean site: a change of its state during the rounds fails the run (see engine.ts).
      const cleanBefore = await sideStates(running, ['config:clean']);
      const { samples, taken } = await siteRounds(measuredConfigs, ask, { rounds, warmup, check, progress, confirm: o.rounds === undefined ? SITE_CONFIRM_ROUNDS : rounds });
      // --instructions: every configuration counted under callgrind after the timed rounds (before the state check, which covers them).
      const counted = o.instructions ? await countSite({ runtime: env.runtime, live: running, site, php: env.php!, env: o.env, sandbox: env.sandbox, cookie, configs: measuredConfigs, onChild: (pid) => o.onResource?.({ pid }), check, progress }, (id, ctx) => !!samples[id]?.[ctx]?.length) : undefined;
      await checkSidesUnchanged(running, cleanBefore, () => "the clean site's database");
      // A first measured round of one-time work (the rest agreeing) counts as warm-up.
      const settling = dropSettling(samples);
      if (settling.length) progress(`${settling.length === 1 ? `${settling[0]} was` : `${settling.length} configuration contexts were`} still doing one-time work in the first measured round (the later rounds agree): that round counted as warm-up`);
      // Each configuration was asked every round: its queries and memory must repeat. One whose did not is named.
      const moved = stateDependent(samples);
      // What WordPress itself does now and then (a transient expiring: time, not another configuration's state)
      // varies the clean site too: said once, and a configuration is named only when it varies more than that.
      for (const d of moved.filter((x) => x.config === 'clean')) progress(`clean WordPress itself varied between rounds (${d.context}: ${d.queries[0]}–${d.queries[1]} queries, ${d.memory_kb[0]}–${d.memory_kb[1]} KB: something it does now and then, such as a transient expiring); every configuration shares that`);
      for (const d of moved.filter((x) => x.config === 'stack')) progress(`warning: the stack itself varied between rounds (${d.context}: ${d.queries[0]}–${d.queries[1]} queries, ${d.memory_kb[0]}–${d.memory_kb[1]} KB): something its plugins do now and then, such as a transient expiring; its figures are marked, and each configuration without a member is judged against it`);
      for (const d of moved.filter((x) => x.config !== 'clean' && x.config !== 'stack')) progress(`warning: configuration ${d.config} is state-dependent (${d.context}: ${d.queries[0] === d.queries[1] ? `${d.queries[0]} queries` : `${d.queries[0]}–${d.queries[1]} queries`}, ${d.memory_kb[0]}–${d.memory_kb[1]} KB between rounds): its figures are marked`);
      const measured = [...regular, ...(theme ? [theme] : []), ...mus];
      // A must-use plugin loaded by another's loader file is measured with it (one unit), said in its note.
      const withLoader = (m: Member) => (m.c.mustUse && !muFolders.has(m.c) ? mus.find((o) => muFolders.has(o.c) && o.c.mainFile === m.c.mainFile) : undefined);
      const elsewhere = (m: Member) => !!shard && !left.has(m.c) && !withLoader(m) && !shardOf.has(memberId(m));
      const ids = measured.filter((m) => !left.has(m.c) && !withLoader(m) && !elsewhere(m)).map(memberId);
      // --browser: the homepage of the clean site, the stack and the stack without each member in headless Chromium (siteBrowser.ts).
      const browser = o.browser ? await siteBrowserPass({ live: running, sandbox: env.sandbox, php: env.php?.bin, env: o.env, device: o.device, rounds: o.browserRounds, configs: measuredConfigs, members: measured.filter((m) => ids.includes(memberId(m))).map((m) => ({ id: memberId(m), folders: memberFolders(m.c, targets.get(m.c)!) })), onChild: (pid) => (o.onResource?.({ pid }), track({ pid })), check, progress, onLoads: o.onBrowserLoads }) : undefined;
      const a = siteArithmetic(samples, ids);
      const hashes = await hashing;
      for (const m of measured) {
        const fig = counted && a.components[memberId(m)] ? memberCounted(memberId(m), a.components[memberId(m)], counted.counts) : a.components[memberId(m)];
        const unit = withLoader(m);
        const note = unit && !left.has(m.c) ? { note: `loaded by ${m.c.mainFile}: measured with ${unit.d.slug}`, measured_with: unit.d.slug } : elsewhere(m) ? { note: `measured in another shard of ${shard!.n}`, other_shard: true as const } : {};
        results.push({ kind: m.c.kind, slug: m.d.slug, name: m.c.name, ...(m.c.mustUse ? { must_use: true as const } : {}), alone: fig ? { contexts: fig.alone } : null, in_site: fig ? { contexts: fig.in_site } : null, left_out: leftWhy.get(m.c) ?? null, ...note, ...hashes.get(m.c) });
      }
      const key = (x: SiteComponentResult) => x.in_site?.contexts.homepage?.ttfb_delta_ms ?? -Infinity;
      results.sort((x, y) => Number(x.left_out !== null) - Number(y.left_out !== null) || key(y) - key(x) || x.slug.localeCompare(y.slug));
      return withSiteBrowser({
        source: 'local',
        measured_at: measuredAt,
        site: { contexts: counted ? siteCounted(a.site, counted.counts) : a.site, clean: { contexts: a.clean } },
        components: results,
        sum_of_alone: { contexts: counted ? sumCounted(a.sum_of_alone, ids.map((id) => memberCounted(id, a.components[id], counted.counts).alone)) : a.sum_of_alone, not_counted: Object.fromEntries(CONTEXTS.map((c) => [c, a.not_counted[c].map((id) => id.slice(id.indexOf(':') + 1))])) },
        drop_ins_left_out: dropIns,
        ...(moved.some((x) => x.config !== 'clean') ? { state_dependent: moved.filter((x) => x.config !== 'clean') } : {}),
        ...(counted?.varying.length ? { instructions_varying: counted.varying } : {}),
        local: {
          database: db?.info ?? { engine: 'sqlite', version: /^\d+\.\d+(\.\d+)?/.exec(installed.db_server_info ?? '')?.[0] ?? 'unknown', server: 'file' },
          theme: theme ? `${theme.d.slug}${theme.c.parent ? ` (child of ${theme.c.parent.slug})` : ''}` : null,
          wordpress: installed.wp_version,
          php: installed.php_version,
          runtime: env.runtime,
          rounds,
          warmup_rounds: warmup,
          rounds_taken: roundsTaken(taken),
          configurations: measuredConfigs.length,
          ...(counted ? { instructions: counted.how } : {}),
          ...(shard ? { shard } : {}),
          duration_s: Math.round((Date.now() - started) / 100) / 10,
        },
      }, browser);
    },
  );
}

/**
 * Why the stack fails in `ctx`: the first member whose stack without it answers, else the first that fails on its
 * own there; undefined when neither (no single cause).
 */
async function findBreaker(
  members: Member[],
  folderOf: (m: Member) => string | undefined,
  configs: SiteConfig[],
  settled: (cfg: SiteConfig, ctx: MeasureContext) => Promise<Outcome>,
  ctx: MeasureContext,
  fail: NullReason,
): Promise<{ m: Member; why: string } | undefined> {
  const cfgOf = (id: string) => configs.find((c) => c.id === id);
  const breaks = async (m: Member) => {
    const cfg = cfgOf(`without:${memberId(m)}`);
    return cfg && 'ok' in (await settled(cfg, ctx)) ? { m, why: `${fail.reason.startsWith('redirect') ? 'with it the stack redirects' : 'it breaks the stack'} (${ctx}: ${fail.reason}${fail.php_error ? `: ${firstLine(fail.php_error)}` : ''})` } : undefined;
  };
  const failsAlone = async (m: Member) => {
    const cfg = cfgOf(`alone:${memberId(m)}`);
    const alone = cfg ? await settled(cfg, ctx) : undefined;
    return alone && 'fail' in alone ? { m, why: `it fails on its own (${ctx}: ${alone.fail.reason}${alone.fail.php_error ? `: ${firstLine(alone.fail.php_error)}` : ''})` } : undefined;
  };
  // The members whose folder PHP's error names first, both ways (a parse error in a theme's file, a plugin's fatal
  // error; two members failing at once make the stack without either fail still): on a 30-plugin site each try is a
  // request of the whole stack.
  const named = (m: Member) => !!fail.php_error && !!folderOf(m) && fail.php_error.includes(folderOf(m)!);
  for (const m of members.filter(named)) {
    const found = (await breaks(m)) ?? (await failsAlone(m));
    if (found) return found;
  }
  const rest = members.filter((m) => !named(m));
  for (const m of rest) {
    const found = await breaks(m);
    if (found) return found;
  }
  // No single cause: the first that fails on its own in this context.
  for (const m of rest) {
    const found = await failsAlone(m);
    if (found) return found;
  }
  return undefined;
}

/** A member's id in the configurations ("plugin:SLUG", "mu:SLUG", "theme:SLUG"). */
const memberId = (m: Member) => (m.c.mustUse ? `mu:${m.d.slug}` : `${m.c.kind}:${m.d.slug}`);

/** Takes a must-use plugin out of the throwaway site: its file in mu-plugins and its links in the other folders. */
async function dropMu(siteDir: string, c: MeasuredComponent, folders: Map<MeasuredComponent, { only: string; without: string }>): Promise<void> {
  const content = path.join(siteDir, 'wp-content');
  await fs.rm(path.join(content, 'mu-plugins', c.mainFile), { force: true });
  for (const f of folders.values()) for (const dir of [f.only, f.without]) await fs.rm(path.join(content, dir, c.mainFile), { force: true });
}

/** The must-use plugin whose file (or a sub-folder it loads) a PHP error names: "…/wp-content/mu-plugins/NAME…". */
function mustUseIn(error: string | null | undefined, mus: Member[]): Member | undefined {
  // Every path the error names (the failing line's file is often the last): the loader's file first, else a folder it loads.
  const names = error ? [...error.matchAll(/\/wp-content\/mu-plugins\/([^/\s:()']+)/g)].map((x) => x[1]) : [];
  return mus.find((m) => names.includes(m.c.mainFile)) ?? mus.find((m) => names.some((n) => (m.c.muFolders ?? []).includes(n)));
}
