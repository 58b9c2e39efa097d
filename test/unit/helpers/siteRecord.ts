// A hand-written `measure SITE --site` record: two plugins bundling one library (each costs it alone, neither adds it
// in the site), a theme, a premium plugin left out with a hostile reason, a must-use plugin and a drop-in. Its
// members are deliberately not in the order reports list them.
import type { Figures, SiteRecord } from '../../../src/core/measure/siteRun/siteRecord';

export const fig = (ttfb: number, kb: number, q: number): Figures => ({ ttfb_delta_ms: ttfb, memory_delta_kb: kb, queries_delta: q });

/** A reason with Markdown and HTML in it, a table cell's `|` and a line break. */
export const HOSTILE_REASON = 'it breaks the stack | *bold* `code` (homepage: PHP Fatal error: <script>alert(1)</script>\nStack trace: #0 {main}';

export function siteRecord(): SiteRecord {
  return {
    source: 'local',
    measured_at: '2026-11-25T09:30:00.000Z',
    site: { contexts: { activation: fig(14.1, 5120, 6), homepage: fig(12.5, 4200, 5), admin: null } },
    sum_of_alone: { contexts: { activation: fig(9.8, 9000, 9), homepage: fig(9.3, 7200, 8), admin: fig(6, 6100, 7) } },
    components: [
      {
        kind: 'plugin',
        slug: 'lib-user-b',
        name: 'Lib User | B *two*',
        alone: { contexts: { activation: fig(3.1, 3000, 3), homepage: fig(2.9, 3000, 3), admin: fig(2, 3000, 3) } },
        in_site: { contexts: { activation: fig(0.2, 0, 0), homepage: fig(0.1, 0, 0), admin: null } },
        left_out: null,
      },
      {
        kind: 'plugin',
        slug: 'lib-user-a',
        name: 'Lib User A',
        alone: { contexts: { activation: fig(3.2, 3000, 3), homepage: fig(3, 3000, 3), admin: fig(2.5, 3000, 3) } },
        in_site: { contexts: { activation: fig(0.3, 8, 0), homepage: fig(0.4, 4, 0), admin: null } },
        left_out: null,
      },
      { kind: 'plugin', slug: 'premium-pro', name: 'Premium Pro', alone: null, in_site: null, left_out: HOSTILE_REASON },
      {
        kind: 'theme',
        slug: 'storefront',
        name: 'Storefront',
        alone: { contexts: { activation: fig(3.5, 3000, 3), homepage: fig(3.4, 1200, 2), admin: fig(1.5, 100, 1) } },
        in_site: { contexts: { activation: fig(3, 1100, 2), homepage: fig(6.2, 1100, 2), admin: null } },
        left_out: null,
      },
      { kind: 'plugin', slug: 'mu-loader', name: 'MU Loader', must_use: true, alone: null, in_site: null, left_out: null, note: 'a must-use plugin: in the stack on every request; not measured apart in this version' },
    ],
    drop_ins_left_out: ['wp-content/object-cache.php'],
    local: { database: { engine: 'mariadb', version: '10.11.6', server: 'throwaway' }, theme: 'storefront', wordpress: '6.8.1', php: '8.2.36', runtime: 'php', rounds: 10, configurations: 8, duration_s: 21.4 },
  };
}
