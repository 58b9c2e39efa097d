// Reads the profiles the must-use plugin (./php.ts) wrote: <dir>/<request id>.profile.json, checked for shape.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { profileFileName } from './php';
import type { RequestProfile } from './types';

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const isStacks = (x: unknown): boolean =>
  Array.isArray(x) && x.every((s) => s && typeof s === 'object' && Array.isArray(s.s) && s.s.every((i: unknown) => Number.isInteger(i)) && isNum(s.n));

/** A profile's JSON text, checked: throws on anything but a version-1 profile whose stacks index its frames. */
export function parseProfile(text: string): RequestProfile {
  const p = JSON.parse(text) as RequestProfile;
  if (!p || typeof p !== 'object' || p.v !== 1) throw new Error('not a WP Bench profile (version 1)'); // l10n-ignore: a damaged profile file (CLI errors are English)
  if (!isNum(p.period) || p.period <= 0) throw new Error('profile: bad period'); // l10n-ignore: a damaged profile file (CLI errors are English)
  if (!Array.isArray(p.frames) || !p.frames.every((f) => f && typeof f === 'object' && typeof f.file === 'string')) throw new Error('profile: bad frames'); // l10n-ignore: a damaged profile file (CLI errors are English)
  if (!isStacks(p.samples) || !isStacks(p.queries)) throw new Error('profile: bad samples or queries'); // l10n-ignore: a damaged profile file (CLI errors are English)
  const n = p.frames.length;
  for (const st of [...p.samples, ...p.queries]) if (st.s.some((i) => i < 0 || i >= n)) throw new Error('profile: frame index out of range'); // l10n-ignore: a damaged profile file (CLI errors are English)
  if (!Array.isArray(p.hooks)) p.hooks = [];
  p.hooks = p.hooks.filter((h) => h && typeof h.file === 'string' && typeof h.rel === 'string' && isNum(h.line) && Array.isArray(h.hooks));
  return p;
}

/** The profiles of these request ids found in dir (a request that wrote none — a fatal error, no Excimer — is missing). */
export async function readProfiles(dir: string, ids: readonly string[]): Promise<{ profiles: RequestProfile[]; missing: string[] }> {
  const profiles: RequestProfile[] = [];
  const missing: string[] = [];
  for (const id of ids) {
    const text = await fs.readFile(path.join(dir, profileFileName(id)), 'utf8').catch(() => undefined);
    if (text === undefined) {
      missing.push(id);
      continue;
    }
    try {
      profiles.push(parseProfile(text));
    } catch {
      missing.push(id);
    }
  }
  return { profiles, missing };
}
