// `measure --profile`: the sampling profiler on the throwaway site. After the timed rounds (so profiling never
// touches the figures it explains: the deltas stay those of unprofiled requests), the measured side is requested
// again in each context with X-WPBench-Profile: 1; the must-use plugin of src/core/profile/php.ts samples those
// requests with Excimer and writes one profile per request, which src/core/profile/attribute.ts turns into the
// component's functions with their inclusive time and queries per request.
import { promises as fs, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { crypto } from '../../lazyNode';
import { attributeProfiles } from '../profile/attribute';
import { flameTree } from '../profile/flame';
import { DEFAULT_PERIOD_S, PROFILE_HEADER, PROFILE_MU_PLUGIN, PROFILE_REF_MU_PLUGIN, profileMuPluginPhp } from '../profile/php';
import { MU_REF_DIR } from '../php/phpFiles';
import { readProfiles } from '../profile/read';
import type { LocalProfile, RequestProfile } from '../profile/types';
import type { MeasuredComponent } from '../component/component';
import { runProcess } from '../machine/environment';
import { CONTEXTS, type MeasureContext } from '../record/method';
import { MeasureError } from '../options/runOptions';
import { PATH_URL } from './rounds';
import type { Site } from '../site/site';
import { readProbe, type LiveSite } from '../site/siteClient';

/** Profiled requests per context (each one sampled every millisecond). */
export const PROFILE_ROUNDS = 9;

export const PROFILER_INSTALL_HINT = 'install the Excimer sampling profiler for this PHP (Debian/Ubuntu: sudo apt install php-excimer; elsewhere: pecl install excimer), or pass --php BIN with it';

/** Excimer's version in this PHP, or undefined when it is not loaded (checked before anything starts: exit 8). */
export async function excimerVersion(phpBin: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const r = await runProcess(phpBin, ['-r', 'echo class_exists("ExcimerProfiler") ? (phpversion("excimer") ?: "?") : "";'], { PATH: env.PATH });
  const v = r.code === 0 ? r.stdout.trim() : '';
  return v === '' ? undefined : v;
}

/** Refuses --profile where it cannot run, before anything is built (exit 8 with what to install). */
export async function checkProfiler(runtime: string, phpBin: string | undefined, env: NodeJS.ProcessEnv): Promise<string> {
  if (runtime !== 'php' || !phpBin) throw new MeasureError('--profile needs the php runtime (WordPress Playground has no sampling profiler); run with --runtime php', 8);
  const v = await excimerVersion(phpBin, env);
  if (!v) throw new MeasureError(`--profile: ${phpBin} has no Excimer extension. To profile, ${PROFILER_INSTALL_HINT}`, 8);
  return `excimer ${v}`;
}

/**
 * A copy's files as PHP sees them (its installed copy in the throwaway site: `target` as WordPress names it, a
 * must-use plugin's folder `muDir`), and the folder paths are relative to.
 */
export function componentRoots(site: Site, c: MeasuredComponent, target: string, muDir: string): { roots: string[]; base: string } {
  const content = path.join(realpathSync(site.siteDir), 'wp-content');
  if (c.kind === 'plugin' && c.mustUse) {
    const mu = path.join(content, muDir);
    return { roots: [path.join(mu, c.mainFile), ...(c.muFolders ?? []).map((f) => path.join(mu, f))], base: mu };
  }
  if (c.kind === 'plugin') {
    const plugins = path.join(content, 'plugins');
    if (c.singleFile) return { roots: [path.join(plugins, target)], base: plugins };
    const dir = path.join(plugins, path.posix.dirname(target));
    return { roots: [dir], base: dir };
  }
  const dir = path.join(content, 'themes', target);
  return { roots: [dir], base: dir };
}

export interface Profiler {
  /** where the profiles are written */
  dir: string;
  version: string;
}

/**
 * Writes the profiling must-use plugin where the measured side's requests load it (it acts only on marked
 * requests), and in a comparison the other copy's (its own file and marker: each knows only its copy's files).
 */
export async function installProfiler(site: Site, c: MeasuredComponent, version: string, ref?: MeasuredComponent): Promise<Profiler> {
  const dir = path.join(site.workDir, 'profiles');
  await fs.mkdir(dir, { recursive: true });
  const write = async (file: string, muDir: string, marker: '1' | 'ref', roots: { roots: string[]; base: string }) => {
    const source = profileMuPluginPhp({ dir: realpathSync(dir), ...roots, period: DEFAULT_PERIOD_S, marker });
    await fs.writeFile(path.join(site.siteDir, 'wp-content', muDir, file), source, { flag: 'wx' });
  };
  await write(PROFILE_MU_PLUGIN, 'mu-plugins', '1', componentRoots(site, c, site.target, 'mu-plugins'));
  // The other copy's requests read their own must-use folder when the component is a must-use plugin.
  if (ref && site.refTarget) {
    const muDir = ref.mustUse ? MU_REF_DIR : 'mu-plugins';
    await write(PROFILE_REF_MU_PLUGIN, muDir, 'ref', componentRoots(site, ref, ref.mustUse ? ref.mainFile : site.refTarget, MU_REF_DIR));
  }
  return { dir, version };
}

/**
 * The profiled requests: `rounds` per context the measured side could be measured in, each marked for profiling,
 * then attributed. Returns what the record says, and the raw profiles (for --format speedscope|collapsed).
 */
export async function profileRounds(
  p: Profiler,
  live: LiveSite,
  cookie: string,
  measured: ReadonlySet<MeasureContext>,
  rounds: number,
  check: () => void,
  progress: (line: string) => void,
  side: 'measured' | 'ref' = 'measured',
): Promise<{ profile: LocalProfile; raw: Partial<Record<MeasureContext, RequestProfile[]>> }> {
  const ids: Record<MeasureContext, string[]> = { activation: [], homepage: [], admin: [] };
  for (let r = 0; r < rounds; r++) {
    for (const ctx of CONTEXTS) {
      if (!measured.has(ctx)) continue;
      check();
      progress(`profiling ${r + 1}/${rounds}: ${ctx}${side === 'ref' ? ' (baseline copy)' : ''}`);
      const id = crypto().randomBytes(8).toString('hex');
      const headers: Record<string, string> = { 'X-WPBench-Req': id, 'X-WPBench-Side': side, [PROFILE_HEADER]: side === 'ref' ? 'ref' : '1' };
      if (ctx === 'admin') headers.Cookie = cookie;
      await live.get(PATH_URL[ctx], headers).catch((e) => {
        throw live.serverDied(e);
      });
      // The probe is written last of all at shutdown, after the profile: once it is there, so is the profile.
      await readProbe(live.site, id, live.signal);
      ids[ctx].push(id);
    }
  }
  const contexts = {} as LocalProfile['contexts'];
  const raw: Partial<Record<MeasureContext, RequestProfile[]>> = {};
  for (const ctx of CONTEXTS) {
    if (!measured.has(ctx)) {
      contexts[ctx] = null;
      continue;
    }
    const { profiles, missing } = await readProfiles(p.dir, ids[ctx]);
    if (!profiles.length) throw new MeasureError(`--profile: no profile was written for ${ctx} (${missing.length} requests): the profiler did not run in this PHP`, 7);
    raw[ctx] = profiles;
    const a = attributeProfiles(profiles);
    // The merged call tree too (a few hundred nodes): the editor's flame graph draws it.
    contexts[ctx] = { functions: a.functions, sampled_ms: a.sampled_ms, component_ms: a.component_ms, flame: flameTree(profiles, { name: ctx }) };
  }
  return { profile: { profiler: p.version, period_ms: DEFAULT_PERIOD_S * 1000, rounds, contexts }, raw };
}
