// Where a regression came from (`--baseline-ref REF --profile`): for each context whose TTFB got heavier, the
// component's functions whose inclusive time grew most, for every format of the regression report.
import { changeWords, growth, profileDiff, type FunctionChange, type ProfileDiff } from '../measure/profile/diff';
import type { LocalRecord } from '../measure/record/method';
import type { RegressionReport } from '../measure/compare/regression';

/** What a regression report is about (RegressionSubject's part these need). */
interface Compared {
  current: LocalRecord;
  baseline: LocalRecord;
  report: RegressionReport;
}

export interface RegressionSource {
  context: 'activation' | 'homepage' | 'admin';
  change: FunctionChange;
  /** "+18.2 ms, +2 queries" */
  amount: string;
  /** "inc/loader.php:42, on init" */
  where: string;
}

/** The profile diff of the two copies, when both were profiled. */
export function subjectDiff(s: Compared): ProfileDiff | null {
  return s.current.profile && s.baseline.profile ? profileDiff(s.current.profile, s.baseline.profile) : null;
}

/** The largest growths in each context whose TTFB (or instructions) was judged a regression (or, with none, in every context). */
export function regressionSources(s: Compared, top = 3): RegressionSource[] {
  const diff = subjectDiff(s);
  if (!diff) return [];
  const heavier = new Set(s.report.exceeded.filter((e) => e.metric === 'ttfbMs' || e.metric === 'instructions').map((e) => e.context));
  const out: RegressionSource[] = [];
  for (const context of ['activation', 'homepage', 'admin'] as const) {
    if (heavier.size && !heavier.has(context)) continue;
    for (const change of growth(diff, context, top)) out.push({ context, change, ...changeWords(change) });
  }
  return out;
}

/** A source's file as a path from the repository root, for SARIF: beside the main file (plugin, theme, mu-plugins folder). */
export function sourcePath(mainFile: string | undefined, file: string): string | undefined {
  if (!mainFile) return undefined;
  const dir = mainFile.replace(/\\/g, '/').replace(/^\/+/, '').split('/').slice(0, -1).join('/');
  return dir ? `${dir}/${file}` : file;
}
