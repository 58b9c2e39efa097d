// The workspace's rules and its verdict: what is ignored (team config or folder settings), the minimum grade of a
// folder, whether a folder wants diagnostics, and the judgement `wp-bench check` would give over what is declared and
// what is known — never a request.
import * as path from 'node:path';
import type { LookupOutcome } from '../lookup/lookupService';
import type { ComponentKind, DetectedComponent } from '../model';
import { judge, type Judgement } from '../report/judge';
import { GRADE_LETTERS, type GradeLetter } from '../config/teamConfig';
import type { WorkspaceDocuments } from './documents';
import type { LocalResults } from './localResults';
import type { SiteResult } from './siteResults';
import type { SiteRecord } from '../measure/siteRun/siteRecord';
import { entryKey, type SessionHost } from './types';

export class WorkspaceJudgement {
  /** `outcome`: what is known about a component (the session's outcomes, else the cache's memory). */
  constructor(
    private readonly host: Pick<SessionHost, 'folders' | 'folderSettings'>,
    private readonly documents: Pick<WorkspaceDocuments, 'components' | 'teamConfig' | 'problems' | 'folderOf'>,
    private readonly outcome: (kind: ComponentKind, slug: string) => LookupOutcome | undefined,
    private readonly local: Pick<LocalResults, 'records' | 'staleKeys'>,
    /** The site measured as it runs (Measure Site Locally), if any: the budgets are judged on its stack. */
    private readonly site: () => SiteResult | undefined = () => undefined,
  ) {}

  /** Ignored by the team config or by the wpBench.ignore of the folder (of `file`, else of any folder declaring it). */
  isIgnored(slug: string, file?: string): boolean {
    if (this.documents.teamConfig?.config.ignore.includes(slug)) return true;
    const roots = file !== undefined ? [this.documents.folderOf(file)] : this.documents.components.find((e) => e.slug === slug)?.folders ?? [undefined];
    return roots.some((r) => this.host.folderSettings(r).ignore.includes(slug));
  }

  /** Minimum grade for a file's folder: the user's explicit setting, else the team config's, else C. */
  minimumGrade(file?: string): string {
    const s = this.host.folderSettings(file !== undefined ? this.documents.folderOf(file) : this.host.folders()[0]?.root);
    if (s.minimumGradeExplicit) return s.minimumGrade;
    return this.documents.teamConfig?.config.minimumGrade ?? s.minimumGrade;
  }

  diagnosticsEnabled(file: string): boolean {
    return this.host.folderSettings(this.documents.folderOf(file)).diagnosticsEnabled;
  }

  private siteConfig(): { site?: SiteRecord; siteStale?: string } {
    const s = this.site();
    return s ? { site: s.record, ...(s.stale ? { siteStale: s.stale } : {}) } : {};
  }

  /** The same judgement as `wp-bench check`, over what the workspace declares and what is known (no request). */
  judgement(): Judgement {
    const entries = this.documents.components;
    const team = this.documents.teamConfig;
    const outcomes = new Map<string, LookupOutcome>();
    for (const e of entries) {
      const o = this.outcome(e.kind, e.slug);
      if (o) outcomes.set(entryKey(e.kind, e.slug), o);
    }
    // Paths relative to the folder that holds the team config (the CLI's root), as `wp-bench check` prints them.
    const root = team?.root ?? this.host.folders()[0]?.root ?? '';
    const components: DetectedComponent[] = entries.map((e) => ({
      kind: e.kind,
      slug: e.slug,
      name: e.name,
      version: e.version,
      possibleFork: e.possibleFork,
      mustUse: e.mustUse,
      lookup: e.lookup,
      locations: e.locations.map((l) => ({ ...l, file: path.relative(root, l.file).split(path.sep).join('/') })),
    }));
    const grade = this.minimumGrade().charAt(0).toUpperCase();
    const folderIgnore = this.host.folders().flatMap((f) => this.host.folderSettings(f.root).ignore);
    const problems = this.documents.problems.map((p) => ({ ...p, file: path.relative(root, p.absFile).split(path.sep).join('/') }));
    return judge({
      components,
      outcomes,
      problems,
      config: {
        failOn: (GRADE_LETTERS as readonly string[]).includes(grade) ? (grade as GradeLetter) : 'C',
        context: team?.config.context ?? 'homepage',
        budgets: team?.config.budgets ?? {},
        ignore: [...new Set([...folderIgnore, ...(team?.config.ignore ?? [])])],
        contextWeights: team?.config.contextWeights,
        local: this.local.records(),
        localStale: this.local.staleKeys(),
        ...this.siteConfig(),
      },
    });
  }
}
