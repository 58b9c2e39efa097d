// The SARIF 2.1.0 report of a check, for code-scanning UIs: its rules, the findings and the scan's problems at
// their files, paths relative to the repository root.
import { plainText } from './plain';
import { RULES, totalSources, type Finding, type Judgement } from './judge';
import { FINDING_KINDS } from '../measure/findings/types';
import { FINDING_RULES } from './findingsFormats';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
/** The tool's public page (the npm package the README's `npx wp-bench` runs). */
export const INFORMATION_URI = 'https://www.npmjs.com/package/wp-bench';

export interface SarifOptions {
  /** Path of the checked folder inside the repository ('' at the root), prepended to every file. */
  uriPrefix?: string;
  toolVersion?: string;
  informationUri?: string;
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

/** A SARIF 2.1.0 log of one run of WP Bench, paths relative to the repository root (%SRCROOT%). */
export function sarifLog(rules: unknown[], results: unknown[], properties: Record<string, unknown>, opts: Pick<SarifOptions, 'toolVersion' | 'informationUri'> = {}) {
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'WP Bench',
            informationUri: opts.informationUri ?? INFORMATION_URI,
            ...(opts.toolVersion ? { version: opts.toolVersion, semanticVersion: opts.toolVersion } : {}),
            rules,
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { description: { text: 'The repository root.' } } },
        results,
        properties,
      },
    ],
  };
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
  const measuredLocally = j.components.filter((v) => v.source === 'local').map((v) => ({ kind: v.kind, slug: v.slug, label: v.localLabel }));
  const sarif = sarifLog(rules, results, { passed: !j.failed, context: j.config.context, failOn: j.config.failOn, siteTotal: totalSources(j.total), measuredLocally }, opts);
  return JSON.stringify(sarif, null, 2);
}
