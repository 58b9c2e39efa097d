// The SARIF 2.1.0 report of a check, for code-scanning UIs: its rules, the findings and the scan's problems at
// their files, paths relative to the repository root (in the frame of sarifLog.ts).
import { plainText } from './plain';
import { RULES, totalSources, type ComponentVerdict, type Finding, type Judgement } from './judge';
import { CONTEXT_NAMES } from '../model';
import { instructionsCell } from '../present/instructions';
import { varyingNotices } from './reportText';
import { FINDING_KINDS } from '../measure/findings/types';
import { FINDING_RULES } from './findingsFormats';
import { sarifLog, type SarifToolOptions } from './sarifLog';

export interface SarifOptions extends SarifToolOptions {
  /** Path of the checked folder inside the repository ('' at the root), prepended to every file. */
  uriPrefix?: string;
}

function artifactUri(prefix: string, file: string): string {
  const full = [prefix, file].filter((p) => p !== '').join('/').replace(/\\/g, '/').replace(/^\.\//, '');
  return full.split('/').map(encodeURIComponent).join('/');
}

/** SARIF results of the scan's problems, at their file and line (a problem without a file has no location). */
function problemResults(j: Judgement, ruleIndex: number | undefined, location: (file: string, line: number, column: number) => unknown): Record<string, unknown>[] {
  return j.problems.map((p) => ({
    ruleId: 'scan-problem',
    ruleIndex,
    level: p.severity === 'info' ? 'note' : 'warning',
    message: { text: sarifText(plainText(p.message, 1000)) },
    locations: p.file ? [location(p.file, p.line, p.column)] : [],
    partialFingerprints: { 'wpBench/v1': `scan-problem/${p.file}/${plainText(p.message, 200)}` },
  }));
}

/** SARIF message text: `[text](url)` is an embedded link there, so literal brackets (and backslashes) are escaped (§3.11.6). */
function sarifText(text: string): string {
  return text.replace(/[\\[\]]/g, (c) => `\\${c}`);
}

/** The rule of a local measurement whose CPU instructions varied between identical requests. */
const VARYING_RULE = 'instructions-varying';

/** A local measurement's instructions per context ("+1.42 M instr (+0.5 %)") and the contexts that varied; nothing without counts. */
function localInstructions(v: ComponentVerdict): { instructions?: Record<string, string>; instructionsVarying?: string[] } {
  if (!v.local?.local.instructions) return {};
  const instructions = Object.fromEntries(CONTEXT_NAMES.flatMap((c) => {
    const cell = instructionsCell(v.local, c);
    return cell ? [[c, cell]] : [];
  }));
  return { instructions, instructionsVarying: v.local.local.instructions.varying ?? [] };
}

export function toSarif(j: Judgement, opts: SarifOptions = {}): string {
  const prefix = (opts.uriPrefix ?? '').replace(/\\/g, '/').replace(/^\/+|\/+$/g, '');
  const rules: { id: string; name: string; shortDescription: { text: string }; fullDescription: { text: string }; defaultConfiguration: { level: string }; help: { text: string } }[] = RULES.map((r) => ({
    id: r.id as string,
    name: r.name,
    shortDescription: { text: r.short },
    fullDescription: { text: r.full },
    defaultConfiguration: { level: r.level },
    help: { text: r.full },
  }));
  // The findings' rules only where a local measurement has findings (check --measure-local).
  if (j.components.some((v) => v.local?.findings?.length)) rules.push(...FINDING_KINDS.map((k) => ({ id: k, name: FINDING_RULES[k].name, shortDescription: { text: FINDING_RULES[k].text }, fullDescription: { text: FINDING_RULES[k].text }, defaultConfiguration: { level: 'warning' }, help: { text: FINDING_RULES[k].text } })));
  const ruleIndex = new Map(RULES.map((r, i) => [r.id, i]));
  const location = (l: Finding['locations'][number]) => ({
    physicalLocation: {
      artifactLocation: { uri: artifactUri(prefix, l.file), uriBaseId: '%SRCROOT%' },
      region: { startLine: Math.max(1, l.line), startColumn: Math.max(1, l.column), ...(l.length ? { endColumn: Math.max(1, l.column) + l.length } : {}) },
    },
  });
  const results = j.findings.map((f) => {
    const [primary, ...others] = f.locations;
    const result: Record<string, unknown> = {
      ruleId: f.ruleId,
      ruleIndex: ruleIndex.get(f.ruleId),
      level: f.level,
      message: { text: sarifText(plainText(f.message, 1000)) },
      locations: primary ? [location(primary)] : [],
      partialFingerprints: { 'wpBench/v1': f.slug ? `${f.ruleId}/${f.kind}/${f.slug}` : `${f.ruleId}/${f.context}/${f.metric}` },
    };
    if (others.length) result.relatedLocations = others.map((l, i) => ({ id: i + 1, ...location(l), message: { text: 'Also declared here' } }));
    return result;
  });
  results.push(...problemResults(j, ruleIndex.get('scan-problem'), (file, line, column) => location({ file, line, column })));
  // check --measure-local: each locally measured component's findings at their lines (rules after the check's own).
  for (const v of j.components) {
    for (const f of v.local?.findings ?? []) {
      const file = [v.local!.findings_root ?? '', f.file].filter(Boolean).join('/');
      results.push({
        ruleId: f.kind,
        ruleIndex: RULES.length + FINDING_KINDS.indexOf(f.kind),
        level: f.severity === 'warning' ? 'warning' : 'note',
        message: { text: sarifText(plainText(`${v.name ?? v.slug}: ${f.message} Fix: ${f.fix.description}`, 1000)) },
        locations: [location({ file, line: f.line, column: 1 })],
        partialFingerprints: { 'wpBench/v1': `${f.kind}/${v.kind}/${v.slug}/${f.file}/${f.line}` },
      });
    }
  }
  // check --measure-local --instructions: a component whose counted requests varied, a note at its declaring line.
  const varying = varyingNotices(j);
  if (varying.length) {
    const text = 'CPU instructions varied between identical requests of a local measurement: work that depends on the time or on the site\'s state, so its instruction figures are not exact there.';
    const index = rules.push({ id: VARYING_RULE, name: 'InstructionsVarying', shortDescription: { text }, fullDescription: { text }, defaultConfiguration: { level: 'note' }, help: { text } }) - 1;
    for (const { v, text: notice } of varying) {
      const at = v.locations[0];
      results.push({ ruleId: VARYING_RULE, ruleIndex: index, level: 'note', message: { text: sarifText(plainText(`${v.name ?? v.slug}: ${notice}.`, 1000)) }, locations: at ? [location(at)] : [], partialFingerprints: { 'wpBench/v1': `${VARYING_RULE}/${v.kind}/${v.slug}` } });
    }
  }
  const measuredLocally = j.components.filter((v) => v.source === 'local').map((v) => ({ kind: v.kind, slug: v.slug, label: v.localLabel, ...localInstructions(v) }));
  const sarif = sarifLog(rules, results, { passed: !j.failed, context: j.config.context, failOn: j.config.failOn, siteTotal: totalSources(j.total), measuredLocally }, opts);
  return JSON.stringify(sarif, null, 2);
}
