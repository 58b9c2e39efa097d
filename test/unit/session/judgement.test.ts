// WorkspaceJudgement: the ignore lists, the minimum grade and the diagnostics switch read per folder, and the
// verdict `wp-bench check` would give — over fakes of the documents and the folder settings, no scan, no request.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { LookupOutcome } from '../../../src/core/lookup/lookupService';
import type { ScanProblem } from '../../../src/core/model';
import type { TeamConfig } from '../../../src/core/config/teamConfig';
import { WorkspaceJudgement } from '../../../src/core/session/judgement';
import type { ComponentEntry, FolderSettings } from '../../../src/core/session/types';

const A = path.resolve('/ws/a');
const B = path.resolve('/ws/b');

function entry(slug: string, folders: string[]): ComponentEntry {
  return {
    kind: 'plugin',
    slug,
    name: null,
    version: null,
    locations: folders.map((f) => ({ file: path.join(f, 'composer.json'), line: 3, column: 5, length: slug.length, source: 'composer.json' })),
    possibleFork: false,
    wordpressOrgUri: false,
    mustUse: false,
    outsideWorkspace: false,
    lookup: 'yes',
    folders,
  };
}

function setup(o: { entries?: ComponentEntry[]; team?: Partial<TeamConfig>; settings?: Record<string, Partial<FolderSettings>>; problems?: (ScanProblem & { absFile: string })[]; outcomes?: Record<string, LookupOutcome> } = {}) {
  const folders = [A, B];
  const host = {
    folders: () => folders.map((root) => ({ root, name: path.basename(root) })),
    folderSettings: (root: string | undefined): FolderSettings => ({ ignore: [], minimumGrade: 'C', minimumGradeExplicit: false, diagnosticsEnabled: true, ...(root ? o.settings?.[root] : undefined) }),
  };
  const documents = {
    components: o.entries ?? [],
    teamConfig: o.team ? { root: A, config: { budgets: {}, ignore: [], positions: {}, ...o.team } as TeamConfig, problems: [] } : undefined,
    problems: o.problems ?? [],
    folderOf: (file: string) => folders.find((f) => file.startsWith(f + path.sep)),
  };
  const local = { records: () => new Map(), staleKeys: () => new Set<string>() };
  return new WorkspaceJudgement(host, documents, (kind, slug) => o.outcomes?.[`${kind}/${slug}`], local);
}

describe('session judgement', () => {
  it('ignored by the team config anywhere, else by the folder of the file, else by any folder declaring it', () => {
    const j = setup({ entries: [entry('akismet', [B]), entry('jetpack', [A])], team: { ignore: ['hello-dolly'] }, settings: { [A]: { ignore: ['akismet'] }, [B]: { ignore: ['jetpack'] } } });
    assert.equal(j.isIgnored('hello-dolly'), true, 'the team config');
    assert.equal(j.isIgnored('akismet', path.join(A, 'composer.json')), true, "folder a's own list");
    assert.equal(j.isIgnored('akismet', path.join(B, 'composer.json')), false, 'folder b does not ignore it');
    assert.equal(j.isIgnored('akismet'), false, 'declared only in b, which does not ignore it');
    assert.equal(j.isIgnored('jetpack'), false, 'declared only in a');
    assert.equal(j.isIgnored('unknown-slug'), false, 'not declared: the window-wide default settings');
  });

  it("the minimum grade: the user's explicit setting, else the team config's, else the setting's default", () => {
    assert.equal(setup().minimumGrade(), 'C');
    assert.equal(setup({ team: { minimumGrade: 'B' } }).minimumGrade(), 'B');
    const j = setup({ team: { minimumGrade: 'B' }, settings: { [B]: { minimumGrade: 'D', minimumGradeExplicit: true } } });
    assert.equal(j.minimumGrade(path.join(B, 'composer.json')), 'D', 'explicit in folder b');
    assert.equal(j.minimumGrade(path.join(A, 'composer.json')), 'B', 'the team config in folder a');
  });

  it('diagnostics are switched per folder', () => {
    const j = setup({ settings: { [B]: { diagnosticsEnabled: false } } });
    assert.equal(j.diagnosticsEnabled(path.join(A, 'x.json')), true);
    assert.equal(j.diagnosticsEnabled(path.join(B, 'x.json')), false);
  });

  it("the verdict uses paths relative to the team config's folder, the known outcomes, both ignore lists and the minimum grade", () => {
    const outcome: LookupOutcome = { kind: 'plugin', slug: 'akismet', result: { state: 'not-in-dataset' } } as unknown as LookupOutcome;
    const j = setup({
      entries: [entry('akismet', [A]), entry('jetpack', [A]), entry('query-monitor', [B])],
      team: { ignore: ['jetpack'], minimumGrade: 'B' },
      settings: { [B]: { ignore: ['query-monitor'] } },
      problems: [{ file: 'composer.json', line: 2, column: 1, message: 'Invalid JSON', absFile: path.join(A, 'sub', 'composer.json') }],
      outcomes: { 'plugin/akismet': outcome },
    });
    const v = j.judgement();
    assert.equal(v.config.failOn, 'B');
    assert.deepEqual([...v.config.ignore].sort(), ['jetpack', 'query-monitor']);
    assert.equal(v.counts.ignored, 2);
    assert.equal(v.counts.problems, 1);
    const akismet = v.components.find((c) => c.slug === 'akismet');
    assert.equal(akismet?.locations[0].file, 'composer.json', 'relative to the folder of the team config');
    assert.equal(akismet?.outcome, outcome);
  });

  it('a minimum grade that is not a grade letter fails on C', () => {
    const j = setup({ settings: { [A]: { minimumGrade: 'z', minimumGradeExplicit: true } } });
    assert.equal(j.judgement().config.failOn, 'C');
  });
});
