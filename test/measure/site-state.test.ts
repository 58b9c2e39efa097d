// Integration (issue 38): "in this site" is what removing the component from the site changes, as two real sites show
// it — also for plugins whose work depends on what another configuration of the run left behind. A calibration site
// written here, modelled on what real plugins do:
// - `cal-builder` (a page builder: 2 queries on init) and `cal-addon`, its add-on, which deactivates itself on an admin
//   screen when the builder is not active (deactivate_plugins(), as add-ons do): in a run where every configuration
//   shares one `active_plugins`, the add-on's configuration without the builder wrote that option back without every
//   other plugin, and later configurations ran without them;
// - `cal-flagger` sets an option on every request, and `cal-reader` (loaded first) pays 30 queries whenever it finds it
//   set and clears it: on the real site with both, the reader pays on every request; without the flagger, never. A
//   run whose configurations share one options table lets the flag of one configuration reach the next.
// Queries are exact, so the figures are compared exactly with two real sites: the same site measured again without the
// member (its stack). On the throwaway MariaDB (each configuration then has tables of its own).
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../src/cli';

const ROOT = path.resolve(__dirname, '..', '..');
const CONTEXTS = ['activation', 'homepage', 'admin'] as const;

interface Figures {
  queries_delta: number;
  memory_delta_kb: number;
}
interface Rec {
  site: { contexts: Record<string, Figures | null> };
  components: Array<{ slug: string; in_site: { contexts: Record<string, Figures | null> } | null; alone?: { contexts: Record<string, Figures | null> } | null }>;
  state_dependent?: unknown[];
}

async function writeSite(dir: string, without: string[] = []): Promise<void> {
  const put = async (rel: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), text);
  };
  const plugins: Record<string, string> = {
    'cal-builder': "add_action('init', function () { global $wpdb; $wpdb->get_var('SELECT 1'); $wpdb->get_var('SELECT 2'); });\nclass Cal_Builder {}\n",
    'cal-addon':
      "add_action('init', function () { global $wpdb; $wpdb->get_var('SELECT 3'); });\n" +
      "add_action('admin_init', function () { if (!class_exists('Cal_Builder')) { require_once ABSPATH . 'wp-admin/includes/plugin.php'; deactivate_plugins(plugin_basename(__FILE__)); } });\n",
    'cal-flagger': "add_action('init', function () { update_option('cal_flag', (string) microtime(true), false); });\n",
    // Its activation writes its settings; a request that finds none pays 10 queries (an install routine run again).
    'cal-installer':
      "register_activation_hook(__FILE__, function () { add_option('cal_installer_settings', array('v' => 1)); });\n" +
      "add_action('init', function () { global $wpdb; $wpdb->get_var('SELECT 40'); if (!get_option('cal_installer_settings')) { for ($i = 0; $i < 10; $i++) $wpdb->get_var('SELECT ' . $i); } });\n",
    // Loaded before the flagger (WordPress loads active plugins in their sorted order): it sees the previous request's flag.
    'cal-a-reader': "add_action('plugins_loaded', function () { if (get_option('cal_flag')) { global $wpdb; for ($i = 0; $i < 30; $i++) $wpdb->get_var('SELECT ' . $i); delete_option('cal_flag'); } });\n",
  };
  for (const [slug, body] of Object.entries(plugins)) {
    if (without.includes(slug)) continue;
    await put(`wp-content/plugins/${slug}/${slug}.php`, `<?php\n/**\n * Plugin Name: Calibration ${slug}\n * Version: 1.0\n */\n${body}`);
  }
}

describe('measure --site: each configuration starts from its own state (issue 38)', function () {
  let work: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-site-state-'));
    env = { ...process.env, WPBENCH_CACHE_DIR: path.join(work, 'cache') };
  });
  after(async () => {
    await fs.rm(work, { recursive: true, force: true });
  });

  async function site(name: string, without: string[] = [], extra: string[] = []): Promise<Rec> {
    const dir = path.join(work, name);
    if (!(await fs.stat(dir).catch(() => undefined))) await writeSite(dir, without);
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['measure', dir, '--site', '--json', '--rounds', '3', '--warmup', '1', ...extra], { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd: ROOT });
    assert.equal(code, 0, err.join('\n').slice(-3000));
    return JSON.parse(out.join('\n')) as Rec;
  }
  let fullRecord: Rec | undefined;

  it("each member's 'in this site' queries equal the difference between the two real sites with and without it", async () => {
    const full = await site('full');
    fullRecord = full;
    for (const slug of ['cal-flagger', 'cal-builder', 'cal-a-reader']) {
      const less = await site(`without-${slug}`, [slug]);
      const member = full.components.find((c) => c.slug === slug);
      assert.ok(member?.in_site, `${slug} measured in the site`);
      for (const ctx of CONTEXTS) {
        const truth = full.site.contexts[ctx]!.queries_delta - less.site.contexts[ctx]!.queries_delta;
        assert.equal(member.in_site.contexts[ctx]!.queries_delta, truth, `${slug} in this site, ${ctx}: the two real sites differ by ${truth}`);
      }
    }
    // The flag's cost is the reader's, paid only where the flagger runs: removing the flagger saves the reader's 30
    // queries and its own write (at least 30 on every context).
    const flagger = full.components.find((c) => c.slug === 'cal-flagger')!;
    for (const ctx of CONTEXTS) assert.ok(flagger.in_site!.contexts[ctx]!.queries_delta >= 30, `${ctx}: ${JSON.stringify(flagger.in_site!.contexts[ctx])}`);
    // The add-on kept its place: in the stack, the builder's and the add-on's queries are there in admin too.
    assert.ok(full.components.find((c) => c.slug === 'cal-addon')!.in_site!.contexts.admin!.queries_delta >= 1);
    // What its activation wrote is in every configuration that has it: 1 query alone and in the site, never the 10 of
    // an install routine that finds no settings.
    const installer = full.components.find((c) => c.slug === 'cal-installer') as (Rec['components'][number] & { alone: { contexts: Record<string, Figures | null> } | null }) | undefined;
    for (const ctx of CONTEXTS) {
      assert.equal(installer!.in_site!.contexts[ctx]!.queries_delta, 1, `cal-installer in this site, ${ctx}`);
      assert.equal(installer!.alone!.contexts[ctx]!.queries_delta, 1, `cal-installer alone, ${ctx}`);
    }
    // Every configuration asked the same queries in every round: nothing state-dependent is left.
    assert.deepEqual(full.state_dependent ?? [], []);
  });

  it('--shard 1/2 and 2/2, merged, give each member the figures of the whole run (queries exact), the stack and the sum of the parts', async () => {
    const full = fullRecord ?? (await site('full'));
    const files: string[] = [];
    for (const k of [1, 2]) {
      const rec = await site('full', [], ['--shard', `${k}/2`]);
      const measured = rec.components.filter((c) => c.in_site);
      assert.ok(measured.length >= 1 && measured.length < full.components.length, `shard ${k}/2 measures a share: ${measured.map((c) => c.slug).join(', ')}`);
      const file = path.join(work, `shard-${k}.json`);
      await fs.writeFile(file, JSON.stringify(rec));
      files.push(file);
    }
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['merge', ...files, '--json'], { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd: ROOT });
    assert.equal(code, 0, err.join('\n'));
    const merged = JSON.parse(out.join('\n')) as Rec & { local: { shards?: number }; sum_of_alone: { contexts: Record<string, Figures | null> } };
    assert.equal(merged.local.shards, 2);
    for (const c of full.components) {
      const m = merged.components.find((x) => x.slug === c.slug);
      assert.ok(m?.in_site, `${c.slug} in the merged record`);
      for (const ctx of CONTEXTS) assert.equal(m.in_site.contexts[ctx]!.queries_delta, c.in_site!.contexts[ctx]!.queries_delta, `${c.slug} ${ctx}`);
    }
    for (const ctx of CONTEXTS) assert.equal(merged.site.contexts[ctx]!.queries_delta, full.site.contexts[ctx]!.queries_delta, `the stack, ${ctx}`);
    // A shard missing: refused, saying which.
    const one = await runCli(['merge', files[0]], { out: () => undefined, err: (t) => err.push(t), env, cwd: ROOT });
    assert.equal(one, 2);
    assert.match(err.join('\n'), /shards of 2: missing 2/);
  });
});
