// What the editor shows of a local profile (`Profile Locally`, `measure --profile`): a CodeLens above each profiled
// function of the component ("homepage +30.4 ms · 4 queries · admin +0.3 ms") and on the add_action/add_filter line
// that registers it; its tooltip (the three contexts and the hooks); the tree's top five functions. Marked stale
// after an edit, as local results are.
import * as path from 'node:path';
import { l10n } from '../l10n';
import type { LocalResult } from '../measure/record/method';
import type { FunctionCost } from '../measure/profile/types';
import { CONTEXT_NAMES, type ContextName } from '../model';
import { formatInstructions, plural } from './format';
import { contextLabel } from './outcome';

/** One function of the component with its figures in each context it was seen in. */
export interface ProfiledFunction {
  function: string;
  /** relative to the component's folder, as in the record */
  file: string;
  line: number;
  hooks: string[];
  contexts: Partial<Record<ContextName, FunctionCost>>;
  /** the largest inclusive time of its contexts, ms (instructions in a profile by instructions) */
  maxMs: number;
  /** what its figures count (`measure --profile --instructions`: 'instructions') */
  unit?: 'ms' | 'instructions';
}

export interface LensSpec {
  /** 0-based line */
  line: number;
  title: string;
  tooltip: string;
  fn: ProfiledFunction;
}

const ms = (x: number) => `${x >= 100 ? Math.round(x) : x.toFixed(1)} ms`;
/** A figure of the profile in its unit: "30.4 ms", "1.42 M instr". */
const cost = (x: number, unit: 'ms' | 'instructions' | undefined) => (unit === 'instructions' ? formatInstructions(x) : ms(x));

/** The profile's functions merged across contexts (one entry per file and defining line). */
export function profiledFunctions(local: LocalResult): ProfiledFunction[] {
  const p = local.record.profile;
  if (!p) return [];
  const by = new Map<string, ProfiledFunction>();
  for (const ctx of CONTEXT_NAMES) {
    for (const f of p.contexts[ctx]?.functions ?? []) {
      const key = `${f.file}:${f.line}:${f.function}`;
      let e = by.get(key);
      if (!e) by.set(key, (e = { function: f.function, file: f.file, line: f.line, hooks: [], contexts: {}, maxMs: 0, ...(p.unit ? { unit: p.unit } : {}) }));
      e.contexts[ctx] = f;
      e.maxMs = Math.max(e.maxMs, f.ms);
      for (const h of f.hooks) if (!e.hooks.includes(h)) e.hooks.push(h);
    }
  }
  return [...by.values()].sort((a, b) => b.maxMs - a.maxMs || a.file.localeCompare(b.file) || a.line - b.line);
}

/** The folder the profile's paths are relative to: the measured folder, or a single file's folder. */
export function profileBase(local: LocalResult): string {
  return /\.php$/i.test(local.source) ? path.dirname(local.source) : local.source;
}

/** "homepage +30.4 ms · 4 queries · admin +0.3 ms" (stale: marked). */
export function lensTitle(f: ProfiledFunction, stale: boolean): string {
  const parts = CONTEXT_NAMES.filter((c) => f.contexts[c]).map((c) => {
    const x = f.contexts[c]!;
    const n = Math.round(x.queries * 10) / 10;
    const q = n > 0 ? ` · ${plural(n, l10n.t('1 query'), l10n.t('{0} queries', n))}` : '';
    return `${contextLabel(c)} +${cost(x.ms, f.unit)}${q}`;
  });
  const text = parts.join(' · ');
  return stale ? l10n.t('{0} (stale: edited since it was profiled)', text) : text;
}

export function lensTooltip(f: ProfiledFunction, local: LocalResult): string {
  const p = local.record.profile!;
  const lines = [`${f.function} — ${f.file}:${f.line}`];
  for (const c of CONTEXT_NAMES) {
    const x = f.contexts[c];
    lines.push(
      x
        ? l10n.t('{0}: {1} per request (its own {2}), {3} queries', contextLabel(c), cost(x.ms, p.unit), cost(x.self_ms, p.unit), Math.round(x.queries * 10) / 10)
        : p.contexts[c]
          ? p.unit === 'instructions'
            ? l10n.t('{0}: not run', contextLabel(c))
            : l10n.t('{0}: not seen (under {1} ms per request)', contextLabel(c), p.period_ms)
          : l10n.t('{0}: not measured', contextLabel(c)),
    );
  }
  lines.push(f.hooks.length ? l10n.t('Runs on: {0}', f.hooks.join(', ')) : l10n.t('Runs on: no hook seen (called directly)'));
  lines.push(
    p.unit === 'instructions'
      ? l10n.t('Profiled locally ({0}, {1} requests per context): inclusive CPU instructions per request, the same on a repeat.', p.profiler, p.rounds)
      : l10n.t('Profiled locally ({0}, {1} requests per context): inclusive wall-clock time per request.', p.profiler, p.rounds),
  );
  if (local.stale) lines.push(l10n.t('Stale: its files changed since it was profiled.'));
  return lines.join('\n');
}

/** A callback name a registration line names: 'name', array( $this, 'name' ), [ 'Class', 'name' ], Class::name. */
const REGISTRATION = /\badd_(?:action|filter)\s*\(\s*(['"])[^'"]*\1\s*,\s*(.*)$/;

function registeredName(rest: string): string | undefined {
  const arr = /^(?:array\s*\(|\[)\s*[^,]+,\s*(['"])([A-Za-z_\x80-\uffff][\w\x80-\uffff]*)\1/.exec(rest);
  if (arr) return arr[2];
  const str = /^(['"])(?:[\w\\]+::)?([A-Za-z_\x80-\uffff][\w\x80-\uffff]*)\1/.exec(rest);
  return str?.[2];
}

/** CodeLenses for one file of a profiled component: at each function's definition and at the lines registering it. */
export function profileLenses(local: LocalResult, absFile: string, text: string): LensSpec[] {
  const rel = path.relative(profileBase(local), absFile).split(path.sep).join('/');
  if (rel.startsWith('..') || path.isAbsolute(rel)) return [];
  const fns = profiledFunctions(local);
  const here = fns.filter((f) => f.file === rel);
  const out: LensSpec[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  for (const f of here) {
    if (f.line >= 1 && f.line <= lines.length) out.push({ line: f.line - 1, title: lensTitle(f, local.stale), tooltip: lensTooltip(f, local), fn: f });
  }
  // Registrations: by the callback's name (a method by its name), any of the component's functions.
  const byName = new Map<string, ProfiledFunction>();
  for (const f of fns) {
    const short = f.function.replace(/^.*::/, '');
    if (f.function !== '{closure}' && !byName.has(short)) byName.set(short, f);
  }
  lines.forEach((lineText, i) => {
    if (lineText.length > 2000) return;
    const m = REGISTRATION.exec(lineText);
    const name = m ? registeredName(m[2]) : undefined;
    const f = name ? byName.get(name) : undefined;
    if (f && !out.some((o) => o.line === i)) out.push({ line: i, title: lensTitle(f, local.stale), tooltip: lensTooltip(f, local), fn: f });
  });
  return out.sort((a, b) => a.line - b.line);
}

/** The tree's top functions of a profiled component (largest time of any context first). */
export function topFunctions(local: LocalResult, n = 5): { fn: ProfiledFunction; label: string; description: string; absFile: string }[] {
  const base = profileBase(local);
  return profiledFunctions(local)
    .slice(0, n)
    .map((fn) => ({ fn, label: fn.function, description: `${lensTitle(fn, local.stale)} — ${fn.file}:${fn.line}`, absFile: path.join(base, ...fn.file.split('/')) }));
}
