// Shared data model of WP Bench. Plain TypeScript: no vscode, no undici.

export type ComponentKind = 'plugin' | 'theme';

export type LocationSource =
  | 'composer.json'
  | 'composer.lock'
  | 'plugin-header'
  | 'theme-header'
  | 'mu-plugin'
  | 'wp-env'
  /** A child theme's `Template:` line naming a parent that is neither installed nor declared here. */
  | 'theme-parent'
  /** A WordPress Playground blueprint (`blueprint.json`, `*.blueprint.json`). */
  | 'blueprint'
  /** VIP's `wpcom_vip_load_plugin( 'slug' )` in a client-mu-plugins file: the site activates that plugin in code. */
  | 'vip-load-plugin';

/**
 * Whether a detected component is looked up, or why not:
 * - `not-a-wordpress-org-slug`: its folder or file name cannot be a wordpress.org slug (`Divi`, `LayerSlider`);
 * - `not-from-wordpress-org`: nothing says it is the wordpress.org item (a must-use plugin without a wordpress.org URI);
 * - `update-uri`: only headers declare it and its Update URI points away from wordpress.org (a fork, a custom plugin);
 * - `outside-workspace`: only files reached through a symbolic link out of the workspace declare it (its name may be
 *   private: never sent without the user asking, as *Look Up Plugin…* does);
 * - `ignored`: listed in `wpBench.ignore` or `.wp-bench.json` (set by the caller, never by the scanner).
 */
export type LookupDecision = 'yes' | 'not-a-wordpress-org-slug' | 'not-from-wordpress-org' | 'update-uri' | 'outside-workspace' | 'ignored';

/** Where a component is declared. `line` and `column` are 1-based; `length` spans the slug text. */
export interface ComponentLocation {
  /** Path relative to the scanned root, with forward slashes. */
  file: string;
  line: number;
  column: number;
  /** Length in characters of the highlighted range (package name, header value, …). */
  length: number;
  source: LocationSource;
}

export interface DetectedComponent {
  kind: ComponentKind;
  slug: string;
  /** Display name from a header, when one was read. */
  name: string | null;
  /** Installed version: composer.lock first, then the header's Version. */
  version: string | null;
  locations: ComponentLocation[];
  /**
   * Required only for the repository's tests: a require-dev package composer/installers puts under `vendor/` (a
   * WooCommerce extension's tests install WooCommerce there). Listed from its Composer entries; its version never
   * stands for the site's when the site runs it elsewhere.
   */
  testOnly?: boolean;
  /** Update URI points away from wordpress.org: the slug may be a fork. */
  possibleFork?: boolean;
  /** For a parent theme: the child themes that name it as their `Template:`. */
  parentOf?: string[];
  /** A theme with templates/index.html or block-templates/index.html. */
  blockTheme?: boolean;
  /** A header's Plugin URI / Theme URI / Update URI names this slug on wordpress.org. */
  wordpressOrgUri?: boolean;
  /**
   * Every declaration is the site's own must-use code: a file in mu-plugins, or a .wp-env.json mapping of a local
   * path into mu-plugins. Looked up only on wordpress.org evidence.
   */
  mustUse?: boolean;
  /** Every header that declares it was read through a symbolic link to a place outside the workspace. */
  outsideWorkspace?: boolean;
  /** For a child theme: the slug of its `Template:` parent. */
  parent?: string;
  /**
   * Only when the places that install or hold it disagree on the version: each version with where it comes from, the
   * one in `version` first (composer.lock, then a header, then the rest), then by file and line.
   */
  versions?: VersionSource[];
  /** Set by the scanner after merging: looked up, or why not. Absent on partial (live-edit) parses. */
  lookup?: LookupDecision;
}

/** One version of a component and the declaration or file that gives it. */
export interface VersionSource {
  version: string;
  source: LocationSource;
  /** Path relative to the scanned root, with forward slashes; 1-based line. */
  file: string;
  line: number;
}

/** Something the scanner could not use; the scan goes on. */
export interface ScanProblem {
  file: string;
  line: number;
  column: number;
  message: string;
  /** The rejected slug text, for hostile or malformed slugs. */
  slug?: string;
  /** `info` for what is not an error (a blueprint resource that is not a wordpress.org item); default `warning`. */
  severity?: 'warning' | 'info';
}

export interface ScanResult {
  root: string;
  components: DetectedComponent[];
  problems: ScanProblem[];
  stats: { filesOpened: number; bytesRead: number; dirsRead: number };
  /**
   * composer.json / composer.lock files read as an installed theme's own (only packages installed out of its folder
   * count), relative to the root: an edit of one in the editor is parsed the same way.
   */
  ownComposerFiles?: string[];
}

export interface ContextMeasurement {
  ttfbDeltaMs: number;
  memoryDeltaKb: number;
  queriesDelta: number;
}

export const CONTEXT_NAMES = ['activation', 'homepage', 'admin'] as const;
export type ContextName = (typeof CONTEXT_NAMES)[number];

/** A record as returned by the API, normalised. `null` contexts mean "not measured", never zero. */
export interface BenchmarkRecord {
  slug: string;
  kind: ComponentKind;
  name: string;
  benchmarked: boolean;
  benchmarkedAt: string | null;
  grade: string | null;
  score: number | null;
  contexts: Record<ContextName, ContextMeasurement | null>;
  activeInstalls: number | null;
  rating: number | null;
  profileUrl: string | null;
  /** The record is made up (the emulator's synthetic dataset): every surface says so. */
  synthetic?: boolean;
}

/** Result of a plugin/theme lookup. */
export type LookupResult =
  | { state: 'benchmarked'; record: BenchmarkRecord }
  | { state: 'not-benchmarked'; record: BenchmarkRecord }
  | { state: 'not-in-dataset'; kind: ComponentKind; slug: string };

/** Quota as last seen from rate-limit headers or /me. Any field may be unknown. */
export interface QuotaSnapshot {
  limit: number | null;
  remaining: number | null;
  used: number | null;
  /** Epoch milliseconds of the next reset, when known. */
  resetAt: number | null;
  tier: string | null;
  /** Epoch milliseconds when this snapshot was taken. */
  observedAt: number;
}

export interface AccountInfo {
  tier: string | null;
  limit: number | null;
  used: number | null;
  remaining: number | null;
  resetAt: number | null;
  /** The /me body as received, for fields we do not know. */
  raw: unknown;
}

/** Valid slug as accepted by WP Bench (wordpress.org slugs, plus underscores seen in the wild). */
export const SLUG_PATTERN = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;
export const SLUG_MAX_LENGTH = 200;

export function isValidSlug(slug: string): boolean {
  return typeof slug === 'string' && slug.length <= SLUG_MAX_LENGTH && SLUG_PATTERN.test(slug);
}

/** wordpress.org's own slug rule (the `Requires Plugins` header's): lower-case letters and digits in `-`-separated runs. */
export const WPORG_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function isWordPressOrgSlug(slug: string): boolean {
  return typeof slug === 'string' && slug.length <= SLUG_MAX_LENGTH && WPORG_SLUG_PATTERN.test(slug);
}

/** ISO 8601 of an epoch-ms time, or null when it is missing or outside what a Date can hold (never throws). */
export function isoTime(t: number | null | undefined): string | null {
  if (typeof t !== 'number' || !Number.isFinite(t) || Math.abs(t) > 8.64e15) return null;
  return new Date(t).toISOString();
}
