// Merging detections of the same component from several sources.
import type { ComponentLocation, DetectedComponent, LocationSource, ScanProblem, VersionSource } from '../model';

/** The places that hold a component's code in the working tree (its header, a must-use file): it is installed here. */
export const INSTALLED_SOURCES: ReadonlySet<LocationSource> = new Set(['plugin-header', 'theme-header', 'mu-plugin']);

function versionRank(c: DetectedComponent): number {
  if (c.version === null) return -1;
  if (c.locations.some((l) => l.source === 'composer.lock')) return 2;
  if (c.locations.some((l) => INSTALLED_SOURCES.has(l.source))) return 1;
  return 0;
}

function nameRank(c: DetectedComponent): number {
  if (c.name === null) return -1;
  return c.locations.some((l) => INSTALLED_SOURCES.has(l.source)) ? 1 : 0;
}

export function compareLocations(a: ComponentLocation, b: ComponentLocation): number {
  return (
    (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
    a.line - b.line ||
    a.column - b.column ||
    (a.source < b.source ? -1 : a.source > b.source ? 1 : 0)
  );
}

const NO_LOCATION: ComponentLocation = { file: '\uffff', line: 0, column: 0, length: 0, source: 'composer.json' };

function firstLocation(c: DetectedComponent): ComponentLocation {
  return c.locations.reduce((min, l) => (compareLocations(l, min) < 0 ? l : min), c.locations[0] ?? NO_LOCATION);
}

export function compareComponents(a: DetectedComponent, b: DetectedComponent): number {
  if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1;
  return a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0;
}

const FLAGS = ['possibleFork', 'blockTheme', 'wordpressOrgUri', 'mustUse', 'outsideWorkspace', 'testOnly'] as const;
const MERGED_KEYS = new Set<string>(['kind', 'slug', 'name', 'version', 'locations', 'parent', ...FLAGS]);

/** A component the merge would copy as it is: one location or none, flags only when true, no lists to sort. */
function alreadyMerged(c: DetectedComponent): boolean {
  if (c.locations.length > 1) return false;
  for (const k in c) if (!MERGED_KEYS.has(k)) return false;
  return FLAGS.every((f) => c[f] === undefined || c[f] === true) && (!('parent' in c) || c.parent !== undefined);
}

/**
 * One component per kind+slug with every location (deduplicated, sorted by file then line).
 * Version: composer.lock wins over a header's Version, which wins over anything else.
 * Name: a header's name wins. Flags are OR-ed, parentOf is the union. Output sorted by kind, slug.
 */
export function mergeComponents(items: Iterable<DetectedComponent>): DetectedComponent[] {
  // Sorted by kind and slug (stable: equal ones keep their order), each kind+slug is a run: no map of groups, and the
  // output is in order already.
  const sorted = [...items].sort(compareComponents);
  const out: DetectedComponent[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i + 1;
    while (j < sorted.length && sorted[j].kind === sorted[i].kind && sorted[j].slug === sorted[i].slug) j++;
    // One component from one place with at most one location (a plugin folder's header): it is its own merge.
    if (j === i + 1 && alreadyMerged(sorted[i])) {
      out.push(sorted[i++]);
      continue;
    }
    const g = sorted.slice(i, j);
    i = j;
    // Detections arrive in file-system order, which varies between runs: rank ties (two copies of a theme with
    // different versions) go to the first by file and line, so every scan of the same tree says the same.
    if (g.length > 1) g.sort((a, b) => compareLocations(firstLocation(a), firstLocation(b)));
    // Most components come from one place with one location (a plugin folder's header): nothing to deduplicate.
    const single = g.length === 1 && g[0].locations.length < 2;
    let version: string | null = null;
    let vRank = -1;
    let name: string | null = null;
    let nRank = -1;
    const seen = single ? undefined : new Set<string>();
    const locations: ComponentLocation[] = [];
    let parents: Set<string> | undefined;
    let possibleFork = false;
    let blockTheme = false;
    let wordpressOrgUri = false;
    let mustUse = true;
    let outsideWorkspace = true;
    let parent: string | undefined;
    const versions: VersionSource[] = [];
    // A test-only entry (require-dev under vendor/) gives its places, never the version, beside one the site runs.
    const siteRuns = g.some((c) => !c.testOnly);
    let testOnly = true;
    for (const c of g) {
      testOnly &&= c.testOnly === true;
      if (siteRuns && c.testOnly) {
        for (const l of c.locations) if (!seen?.has(`${l.file}\0${l.line}\0${l.column}\0${l.source}`)) (seen?.add(`${l.file}\0${l.line}\0${l.column}\0${l.source}`), locations.push({ ...l }));
        continue;
      }
      // One component's version is the version: a list of versions only ever comes from several.
      if (!single && c.version !== null && c.locations.length) {
        const at = firstLocation(c);
        versions.push({ version: c.version, source: at.source, file: at.file, line: at.line });
      }
      // The ranks choose between components; one alone gives its own version and name.
      const vr = g.length === 1 ? 0 : versionRank(c);
      if (vr > vRank) {
        vRank = vr;
        version = c.version;
      }
      const nr = g.length === 1 ? 0 : nameRank(c);
      if (nr > nRank) {
        nRank = nr;
        name = c.name;
      }
      for (const l of c.locations) {
        if (seen) {
          const k = `${l.file}\0${l.line}\0${l.column}\0${l.source}`;
          if (seen.has(k)) continue;
          seen.add(k);
        }
        locations.push({ ...l });
      }
      for (const p of c.parentOf ?? []) (parents ??= new Set()).add(p);
      possibleFork ||= c.possibleFork === true;
      blockTheme ||= c.blockTheme === true;
      wordpressOrgUri ||= c.wordpressOrgUri === true;
      mustUse &&= c.mustUse === true;
      outsideWorkspace &&= c.outsideWorkspace === true;
      parent ??= c.parent;
    }
    if (!single) locations.sort(compareLocations);
    const merged: DetectedComponent = { kind: g[0].kind, slug: g[0].slug, name, version, locations };
    if (possibleFork) merged.possibleFork = true;
    if (parents?.size) merged.parentOf = [...parents].sort();
    if (blockTheme) merged.blockTheme = true;
    if (wordpressOrgUri) merged.wordpressOrgUri = true;
    if (mustUse) merged.mustUse = true;
    if (outsideWorkspace) merged.outsideWorkspace = true;
    if (testOnly) merged.testOnly = true;
    if (parent !== undefined) merged.parent = parent;
    if (versions.some((v) => v.version !== version)) merged.versions = versionList(versions, version);
    out.push(merged);
  }
  return out;
}

/** Each version once per place, the chosen one first, then by file and line. */
function versionList(versions: VersionSource[], chosen: string | null): VersionSource[] {
  const seen = new Set<string>();
  const out = versions.filter((v) => {
    const k = `${v.version}\0${v.file}\0${v.line}`;
    return seen.has(k) ? false : (seen.add(k), true);
  });
  return out.sort((a, b) => Number(b.version === chosen) - Number(a.version === chosen) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line);
}

/** Problem text for people: no control characters, and a hostile 10,000-character slug is not echoed whole. */
export function readableMessage(message: string, max = 300): string {
  const clean = message.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** Problems deduplicated (same file, position, message, slug) and sorted by file then line. */
export function normalizeProblems(problems: Iterable<ScanProblem>): ScanProblem[] {
  const seen = new Set<string>();
  const out: ScanProblem[] = [];
  for (const p of problems) {
    const k = `${p.file}\0${p.line}\0${p.column}\0${p.message}\0${p.slug ?? ''}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push({ ...p, message: readableMessage(p.message) });
  }
  return out.sort(
    (a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.column - b.column,
  );
}

/** Which declaring place stands for a component: its own header first, then what a site's manifest says. */
const PRINCIPAL_ORDER: Record<LocationSource, number> = {
  'plugin-header': 0,
  'theme-header': 0,
  'mu-plugin': 0,
  'composer.json': 1,
  'composer.lock': 2,
  'wp-env': 3,
  'vip-load-plugin': 4,
  blueprint: 5,
  'theme-parent': 6,
};

/**
 * The place that stands for a component in one line (the CLI's DECLARED IN, "open declaration"): the installed
 * plugin's or theme's own header when there is one, else composer.json, composer.lock, .wp-env.json, a VIP load call,
 * a blueprint, and a child theme's Template line last; within a source, the first by file and line (the
 * locations' order). GatherPress's `gatherpress.php`, not the `.github/…/blueprint.json` that sorts before it.
 */
export function principalLocation<L extends { source: LocationSource }>(locations: readonly L[]): L | undefined {
  let best: L | undefined;
  for (const l of locations) if (!best || PRINCIPAL_ORDER[l.source] < PRINCIPAL_ORDER[best.source]) best = l;
  return best;
}
