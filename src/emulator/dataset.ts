// Deterministic synthetic dataset of the emulator. Records are computed from a hash of (seed, kind,
// slug) on demand, so 22,000+ known slugs cost nothing at start-up. All values are invented.

import type { ComponentKind } from '../core/model';
import { isValidSlug } from '../core/model';

export const DEFAULT_SEED = 20250601;

/** Synthetic slugs `synthetic-plugin-00001` … `synthetic-plugin-20000` (themes: … `-02000`). */
export const SYNTHETIC_COUNT: Record<ComponentKind, number> = { plugin: 20000, theme: 2000 };

/** Synthetic index divisible by this → known but not benchmarked. */
export const NOT_BENCHMARKED_EVERY = 17;
/** Synthetic index divisible by this (and benchmarked) → homepage context is null (admin-only). */
export const HOMEPAGE_NULL_EVERY = 11;
/** Synthetic index divisible by this (and benchmarked) → admin context is null (front-end only). */
export const ADMIN_NULL_EVERY = 13;

/** Benchmark timestamps fall in the 180 days before this instant (UTC). */
const DATASET_ANCHOR_MS = Date.UTC(2025, 5, 1, 0, 0, 0);

export const GRADES = ['A+', 'A', 'B', 'C', 'D', 'E', 'F'] as const;
export type Grade = (typeof GRADES)[number];

export interface WireContext {
  ttfb_delta_ms: number;
  memory_delta_kb: number;
  queries_delta: number;
}

/** A record exactly as the emulator sends it (the published shape plus `synthetic: true`). */
export interface WireRecord {
  slug: string;
  type: ComponentKind;
  name: string;
  synthetic: true;
  benchmarked: boolean;
  benchmarked_at: string | null;
  speed_score: { grade: string; numeric: number } | null;
  contexts: { activation: WireContext | null; homepage: WireContext | null; admin: WireContext | null };
  metadata: { active_installs: number; rating: number };
  links: { profile: string };
}

interface RealEntry {
  name: string;
  installs: number;
  /** Target grade; the emitted grade is always recomputed from the generated values. */
  grade: Grade | null; // null → known, not benchmarked
  homepageNull?: boolean;
  adminNull?: boolean;
}

const REAL_PLUGINS: Record<string, RealEntry> = {
  akismet: { name: 'Akismet Anti-spam: Spam Protection', installs: 6000000, grade: 'A' },
  woocommerce: { name: 'WooCommerce', installs: 7000000, grade: 'D' },
  'wordpress-seo': { name: 'Yoast SEO', installs: 10000000, grade: 'C' },
  'contact-form-7': { name: 'Contact Form 7', installs: 10000000, grade: 'B' },
  elementor: { name: 'Elementor Website Builder', installs: 10000000, grade: 'D' },
  jetpack: { name: 'Jetpack', installs: 4000000, grade: 'E' },
  wordfence: { name: 'Wordfence Security', installs: 5000000, grade: 'C' },
  'classic-editor': { name: 'Classic Editor', installs: 10000000, grade: 'A+', homepageNull: true },
  'hello-dolly': { name: 'Hello Dolly', installs: 100000, grade: 'A+', homepageNull: true },
  'query-monitor': { name: 'Query Monitor', installs: 200000, grade: 'B' },
  'advanced-custom-fields': { name: 'Advanced Custom Fields', installs: 2000000, grade: 'B' },
  'wpforms-lite': { name: 'WPForms Lite', installs: 6000000, grade: 'C' },
  'litespeed-cache': { name: 'LiteSpeed Cache', installs: 7000000, grade: 'B' },
  'really-simple-ssl': { name: 'Really Simple Security', installs: 4000000, grade: 'A' },
  'all-in-one-seo-pack': { name: 'All in One SEO', installs: 3000000, grade: 'C' },
  updraftplus: { name: 'UpdraftPlus', installs: 3000000, grade: 'B' },
  redirection: { name: 'Redirection', installs: 2000000, grade: 'A' },
  'w3-total-cache': { name: 'W3 Total Cache', installs: 900000, grade: 'C' },
  'wp-super-cache': { name: 'WP Super Cache', installs: 1000000, grade: 'A' },
  'duplicate-post': { name: 'Yoast Duplicate Post', installs: 4000000, grade: 'A', homepageNull: true },
  'http-authentication': { name: 'HTTP Authentication', installs: 1000, grade: null },
  shibboleth: { name: 'Shibboleth', installs: 1000, grade: null },
  'xrds-simple': { name: 'XRDS-Simple', installs: 100, grade: null },
};

const REAL_THEMES: Record<string, RealEntry> = {
  twentytwentyone: { name: 'Twenty Twenty-One', installs: 1000000, grade: 'A+' },
  twentytwentytwo: { name: 'Twenty Twenty-Two', installs: 700000, grade: 'A+' },
  twentytwentythree: { name: 'Twenty Twenty-Three', installs: 800000, grade: 'A+' },
  twentytwentyfour: { name: 'Twenty Twenty-Four', installs: 1000000, grade: 'A' },
  twentytwentyfive: { name: 'Twenty Twenty-Five', installs: 1000000, grade: 'A' },
  astra: { name: 'Astra', installs: 1000000, grade: 'A' },
  generatepress: { name: 'GeneratePress', installs: 500000, grade: 'A+' },
  kadence: { name: 'Kadence', installs: 400000, grade: 'A' },
  'hello-elementor': { name: 'Hello Elementor', installs: 1000000, grade: 'A+' },
  oceanwp: { name: 'OceanWP', installs: 600000, grade: 'B' },
};

const REAL: Record<ComponentKind, Record<string, RealEntry>> = { plugin: REAL_PLUGINS, theme: REAL_THEMES };

/** The well-known real slugs the dataset holds (with synthetic values), in a fixed order. */
export const REAL_SLUGS: Record<ComponentKind, readonly string[]> = {
  plugin: Object.keys(REAL_PLUGINS),
  theme: Object.keys(REAL_THEMES),
};

const SYNTHETIC_RE: Record<ComponentKind, RegExp> = {
  plugin: /^synthetic-plugin-(\d{5})$/,
  theme: /^synthetic-theme-(\d{5})$/,
};

export function syntheticSlug(kind: ComponentKind, index: number): string {
  return `synthetic-${kind}-${String(index).padStart(5, '0')}`;
}

/** Index (1-based) of a synthetic slug, or 0 when the slug is not a synthetic one in range. */
function syntheticIndex(kind: ComponentKind, slug: string): number {
  const m = SYNTHETIC_RE[kind].exec(slug);
  if (!m) return 0;
  const n = Number(m[1]);
  return n >= 1 && n <= SYNTHETIC_COUNT[kind] ? n : 0;
}

export type SlugState = 'benchmarked' | 'not-benchmarked' | 'not-in-dataset';

export function slugState(kind: ComponentKind, slug: string): SlugState {
  if (!isValidSlug(slug)) return 'not-in-dataset';
  const real = Object.prototype.hasOwnProperty.call(REAL[kind], slug) ? REAL[kind][slug] : undefined;
  if (real) return real.grade === null ? 'not-benchmarked' : 'benchmarked';
  const i = syntheticIndex(kind, slug);
  if (!i) return 'not-in-dataset';
  return i % NOT_BENCHMARKED_EVERY === 0 ? 'not-benchmarked' : 'benchmarked';
}

export function datasetSize(kind: ComponentKind): number {
  return REAL_SLUGS[kind].length + SYNTHETIC_COUNT[kind];
}

export type SlugFilter = 'any' | 'benchmarked' | 'not-benchmarked';

/**
 * `count` distinct slugs the dataset knows: the real ones first, then synthetic ones in order.
 * Throws when the dataset holds fewer than asked.
 */
export function knownSlugs(kind: ComponentKind, count: number, filter: SlugFilter = 'any'): string[] {
  const out: string[] = [];
  const want = (s: string) => filter === 'any' || slugState(kind, s) === filter;
  for (const s of REAL_SLUGS[kind]) {
    if (out.length >= count) return out;
    if (want(s)) out.push(s);
  }
  for (let i = 1; i <= SYNTHETIC_COUNT[kind] && out.length < count; i++) {
    const s = syntheticSlug(kind, i);
    if (want(s)) out.push(s);
  }
  if (out.length < count) throw new RangeError(`the dataset holds only ${out.length} ${filter} ${kind} slugs`);
  return out;
}

/** `count` valid slugs guaranteed to be absent from the dataset (→ 404). */
export function unknownSlugs(kind: ComponentKind, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `missing-${kind}-${String(i + 1).padStart(5, '0')}`);
}

// --- deterministic randomness ---------------------------------------------------------------

/** 32-bit FNV-1a over the string, mixed with the seed. */
function hash32(seed: number, text: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** mulberry32: tiny, fast, good enough for synthetic data. */
export function mulberry32(a: number): () => number {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// --- grading ----------------------------------------------------------------------------------

/**
 * Log2 distance of the worse activation dimension above the Grade-A bound (8 MB = 8192 KB, 4 queries).
 * ≤ 0 means within Grade A on both.
 */
export function activationBadness(memoryKb: number, queries: number): number {
  const m = Math.log2(Math.max(memoryKb, 128) / 8192);
  const q = Math.log2(Math.max(queries, 0.5) / 4);
  return Math.max(m, q);
}

/** Grade bands on the log scale: A+ ≤ -2 (2 MB / 1 query), A ≤ 0, B ≤ 1, C ≤ 2, D ≤ 3, E ≤ 4, F beyond. */
export function gradeFor(memoryKb: number, queries: number): { grade: Grade; numeric: number } {
  const b = activationBadness(memoryKb, queries);
  const grade: Grade = b <= -2 ? 'A+' : b <= 0 ? 'A' : b <= 1 ? 'B' : b <= 2 ? 'C' : b <= 3 ? 'D' : b <= 4 ? 'E' : 'F';
  const numeric = Math.min(100, Math.max(0, Math.round((100 - 10 * (Math.max(b, -3) + 3)) * 10) / 10));
  return { grade, numeric };
}

const BAND: Record<Grade, [number, number]> = {
  'A+': [-3.6, -2.2],
  A: [-1.8, -0.2],
  B: [0.15, 0.85],
  C: [1.15, 1.85],
  D: [2.15, 2.85],
  E: [3.15, 3.85],
  F: [4.3, 6.5],
};

/** Share of synthetic benchmarked items per target grade. */
const GRADE_WEIGHTS: [Grade, number][] = [
  ['A+', 0.16], ['A', 0.3], ['B', 0.2], ['C', 0.15], ['D', 0.1], ['E', 0.05], ['F', 0.04],
];

function pickGrade(u: number): Grade {
  let acc = 0;
  for (const [g, w] of GRADE_WEIGHTS) {
    acc += w;
    if (u < acc) return g;
  }
  return 'F';
}

const round1 = (x: number) => Math.round(x * 10) / 10;

// --- names ------------------------------------------------------------------------------------

const ADJ = ['Swift', 'Simple', 'Smart', 'Ultimate', 'Easy', 'Advanced', 'Lite', 'Pro', 'Quick', 'Flexible', 'Modern', 'Secure', 'Instant', 'Better', 'Tiny', 'Power'];
const PLUGIN_NOUN = ['Cache', 'Forms', 'SEO', 'Gallery', 'Backup', 'Slider', 'Analytics', 'Security', 'Redirects', 'Sitemap', 'Newsletter', 'Popups', 'Reviews', 'Shipping', 'Events', 'Translations'];
const PLUGIN_SUFFIX = ['', ' Toolkit', ' Manager', ' Suite', ' for WooCommerce', ' Blocks', ' Helper', ' Plus'];
const THEME_NOUN = ['Blog', 'Portfolio', 'Shop', 'Magazine', 'Agency', 'Starter', 'Minimal', 'Photography', 'Business', 'Recipes'];

function syntheticName(kind: ComponentKind, rnd: () => number): string {
  const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)];
  if (kind === 'plugin') return `${pick(ADJ)} ${pick(PLUGIN_NOUN)}${pick(PLUGIN_SUFFIX)}`;
  return `${pick(ADJ)} ${pick(THEME_NOUN)}`;
}

// --- records ----------------------------------------------------------------------------------

export function formatMysqlUtc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

export interface RecordOptions {
  seed?: number;
  /** Origin for profile links, e.g. `http://127.0.0.1:8787`. */
  profileOrigin?: string;
}

/**
 * The record for a slug, or `undefined` when the slug is not in the dataset.
 * Pure: the same (seed, kind, slug) always gives the same record.
 */
export function recordFor(kind: ComponentKind, slug: string, opts: RecordOptions = {}): WireRecord | undefined {
  const state = slugState(kind, slug);
  if (state === 'not-in-dataset') return undefined;
  const seed = opts.seed ?? DEFAULT_SEED;
  const origin = opts.profileOrigin ?? 'http://127.0.0.1:8787';
  const rnd = mulberry32(hash32(seed, `${kind}:${slug}`));
  const real = Object.prototype.hasOwnProperty.call(REAL[kind], slug) ? REAL[kind][slug] : undefined;
  const index = real ? 0 : syntheticIndex(kind, slug);

  const name = real ? real.name : syntheticName(kind, rnd);
  const installs = real ? real.installs : syntheticInstalls(rnd());
  const rating = installs === 0 ? 0 : round1(3 + 2 * Math.pow(rnd(), 0.6));
  const base = {
    slug,
    type: kind,
    name,
    synthetic: true as const,
  };
  const tail = {
    metadata: { active_installs: installs, rating },
    links: { profile: `${origin}/profiles/${kind}s/${slug}` },
  };
  if (state === 'not-benchmarked') {
    return {
      ...base,
      benchmarked: false,
      benchmarked_at: null,
      speed_score: null,
      contexts: { activation: null, homepage: null, admin: null },
      ...tail,
    };
  }

  const target: Grade = real?.grade ?? pickGrade(rnd());
  const [lo, hi] = BAND[target];
  const b = lo + (hi - lo) * rnd();
  // One dimension sits at the target level, the other at or below it. Real entries are memory-led.
  const memoryLed = real ? true : rnd() < 0.6;
  const slack = 2.5 * rnd();
  const memLevel = memoryLed ? b : b - slack;
  const qLevel = memoryLed ? b - slack : b;
  const actMem = Math.max(40, Math.round(8192 * Math.pow(2, memLevel)));
  const actQ = Math.max(0, Math.round(4 * Math.pow(2, qLevel) - (qLevel < -2.5 ? 1 : 0)));
  const score = gradeFor(actMem, actQ);

  const activation: WireContext = {
    ttfb_delta_ms: round1(2 + actMem / 1024 * 1.6 + actQ * 0.9 + 4 * rnd()),
    memory_delta_kb: actMem,
    queries_delta: actQ,
  };
  const homeMem = Math.round(actMem * (0.55 + 0.5 * rnd()));
  const homeQ = Math.max(0, Math.round(actQ * (0.4 + 1.2 * rnd())));
  // A few front-end measurements come out slightly below baseline: noise, kept as measured.
  const homeTtfb = rnd() < 0.05 ? -round1(2 * rnd()) : round1(homeMem / 1024 * 1.4 + homeQ * 1.1 + 3 * rnd());
  const adminMem = Math.round(actMem * (0.8 + 0.6 * rnd()));
  const adminQ = Math.max(0, Math.round(actQ * (0.8 + 1.5 * rnd())));
  const adminTtfb = round1(5 + adminMem / 1024 * 2 + adminQ * 1.2 + 10 * rnd());

  const homepageNull = real ? !!real.homepageNull : index % HOMEPAGE_NULL_EVERY === 0;
  const adminNull = real ? !!real.adminNull : index % ADMIN_NULL_EVERY === 0 && !homepageNull;
  const at = DATASET_ANCHOR_MS - Math.floor(rnd() * 180 * 86400) * 1000;

  return {
    ...base,
    benchmarked: true,
    benchmarked_at: formatMysqlUtc(at),
    speed_score: score,
    contexts: {
      activation,
      homepage: homepageNull ? null : { ttfb_delta_ms: homeTtfb, memory_delta_kb: homeMem, queries_delta: homeQ },
      admin: adminNull ? null : { ttfb_delta_ms: adminTtfb, memory_delta_kb: adminMem, queries_delta: adminQ },
    },
    ...tail,
  };
}

/** wordpress.org-style install buckets (10+, 100+, …), skewed towards small numbers. */
function syntheticInstalls(u: number): number {
  const buckets = [0, 10, 100, 1000, 10000, 100000, 1000000];
  const weights = [0.1, 0.3, 0.27, 0.18, 0.1, 0.04, 0.01];
  let acc = 0;
  for (let i = 0; i < buckets.length; i++) {
    acc += weights[i];
    if (u < acc) return buckets[i];
  }
  return buckets[buckets.length - 1];
}
