// What the editor shows of a local measurement's findings (`measure --findings`, run by Measure Locally): a diagnostic
// per finding at its line (a warning, or information when it saves little), its hover (the evidence, what fixing it
// saves, the fix, and what a "Measure this change" run measured), the quick fix where the fix is mechanical. Marked
// stale after an edit of the component's files, as local results are. Pure: the glue (src/vscode/findings.ts) maps it.
import * as path from 'node:path';
import { l10n } from '../l10n';
import type { LocalResult } from '../measure/record/method';
import type { Finding, FindingSaves, FixEdit } from '../measure/findings/types';
import { contextLabel } from './outcome';
import { escapeMarkdown, markdownCode } from './markdownEscape';
import { profileBase } from './profileLens';

export interface FindingSpec {
  /** absolute path of the file the finding is in */
  file: string;
  /** the component's root its `finding.file` is relative to (componentFile checks the file against it) */
  root: string;
  /** 0-based line */
  line: number;
  severity: 'warning' | 'information';
  message: string;
  /** the kind, as the diagnostic's code */
  code: string;
  /** one identity per finding of one component, for the hover's measured saving */
  id: string;
  kind: 'plugin' | 'theme';
  slug: string;
  finding: Finding;
  stale: boolean;
}

/** The finding's identity: component, kind, file and line (stable across runs while the line stays). */
export function findingId(local: Pick<LocalResult, 'kind' | 'slug'>, f: Pick<Finding, 'kind' | 'file' | 'line'>): string {
  return `${local.kind}:${local.slug}:${f.kind}:${f.file}:${f.line}`;
}

/** Every finding of the local results, with the absolute file it is in. */
export function findingSpecs(locals: readonly LocalResult[]): FindingSpec[] {
  const out: FindingSpec[] = [];
  for (const local of locals) {
    const base = profileBase(local);
    for (const f of local.record.findings ?? []) {
      // A file outside the component's folder is never pointed at (the record names files relative to it).
      if (f.file.split('/').includes('..') || path.isAbsolute(f.file)) continue;
      const file = path.join(base, ...f.file.split('/'));
      const text = local.stale ? l10n.t('{0} (stale: edited since it was measured)', f.message) : f.message;
      out.push({ file, root: base, line: Math.max(0, f.line - 1), severity: f.severity, message: text, code: f.kind, id: findingId(local, f), kind: local.kind, slug: local.slug, finding: f, stale: local.stale });
    }
  }
  return out;
}

/** "homepage −200 KB · admin −200 KB" of what fixing it saves per request. */
export function savesSummary(saves: Finding['saves']): string {
  const parts: string[] = [];
  for (const [ctx, s] of Object.entries(saves) as [keyof Finding['saves'], FindingSaves][]) {
    const bits = [
      s.memory_kb ? l10n.t('−{0} KB memory', s.memory_kb.toLocaleString('en-US')) : '',
      s.queries ? l10n.t('−{0} queries', s.queries) : '',
      s.http_requests ? l10n.t('−{0} HTTP requests', s.http_requests) : '',
      s.bytes ? l10n.t('−{0} KB download', Math.round(s.bytes / 1024).toLocaleString('en-US')) : '',
    ].filter(Boolean);
    if (bits.length) parts.push(`${contextLabel(ctx)} ${bits.join(', ')}`);
  }
  return parts.join(' · ');
}

/** The hover of a finding: what, the evidence, what fixing it saves, the fix, and what "Measure this change" measured. */
export function findingHover(spec: FindingSpec, measured?: string): string {
  const f = spec.finding;
  // The message itself is the diagnostic's (VS Code shows it above): here the evidence, the saving and the fix.
  const lines = [`**${escapeMarkdown(l10n.t('WP Bench finding'))}** ${markdownCode(f.kind)}${spec.stale ? ` — ${escapeMarkdown(l10n.t('stale: edited since it was measured'))}` : ''}`, ''];
  // An empty list is said ("read_in: none": no measured request read it); numbers with their thousands separated.
  const ev = Object.entries(f.evidence).filter(([k, v]) => v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0 && k !== 'read_in'));
  const value = (v: unknown) => (Array.isArray(v) ? (v.length ? v.join(', ') : l10n.t('none')) : typeof v === 'number' ? v.toLocaleString('en-US') : typeof v === 'object' ? JSON.stringify(v) : String(v));
  lines.push(ev.map(([k, v]) => `${markdownCode(k)}: ${escapeMarkdown(value(v).slice(0, 200))}`).join(' · '));
  const saves = savesSummary(f.saves);
  if (saves) lines.push('', `${escapeMarkdown(l10n.t('Fixing it saves, per request:'))} ${escapeMarkdown(saves)}`);
  lines.push('', `${escapeMarkdown(l10n.t('Fix:'))} ${escapeMarkdown(f.fix.description)}${f.fix.edits?.length ? ` ${escapeMarkdown(l10n.t('(a quick fix applies it)'))}` : ''}`);
  if (measured) lines.push('', `${escapeMarkdown(l10n.t('Measured against HEAD:'))} ${escapeMarkdown(measured)}`);
  return lines.join('\n');
}

/**
 * The quick fix's edits when the document still holds the lines as they were measured (0-based line range and the
 * replacement), else undefined.
 */
export function quickFixEdits(edits: readonly FixEdit[] | undefined, lineAt: (line: number) => string | undefined): { start: number; end: number; text: string }[] | undefined {
  if (!edits?.length) return undefined;
  const out: { start: number; end: number; text: string }[] = [];
  for (const e of edits) {
    const now: string[] = [];
    for (let l = e.line - 1; l <= e.end_line - 1; l++) {
      const t = lineAt(l);
      if (t === undefined) return undefined;
      now.push(t);
    }
    if (now.join('\n') !== e.old) return undefined;
    out.push({ start: e.line - 1, end: e.end_line - 1, text: e.new });
  }
  return out;
}

/** The notification after "Measure this change": what the working tree saves against HEAD, or that nothing was saved. */
export function measuredChangeText(name: string, saved: string | null | undefined): string {
  return saved ? l10n.t('WP Bench: {0} against HEAD, measured: {1} per request.', name, saved) : l10n.t('WP Bench: {0} against HEAD, measured: no saving outside the run\'s noise.', name);
}
