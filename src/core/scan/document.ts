// One declaration file as the editor holds it (unsaved text), with what it needs from beside it on disk:
// composer.json reads its composer.lock for package types, composer.lock reads composer.json for install
// folders, .wp-env.json reads the folder's headers for `.`. Plain Node, no vscode.
import * as path from 'path';
import type { DetectedComponent, ScanProblem } from '../model';
import { isBlueprintFile, parseBlueprint } from './blueprint';
import { parseComposerJson, parseComposerLock } from './composer';
import { AsyncFs } from './fsaccess';
import { selfSlugsOf } from './workspace';
import { parseWpEnv } from './wpenv';

const MAX_PARTNER_BYTES = 8 * 1024 * 1024;

/** Files whose text declares components (and that the editor re-parses as they are edited). */
export function isDeclarationFile(fileName: string): boolean {
  return fileName === 'composer.json' || fileName === 'composer.lock' || fileName === '.wp-env.json' || fileName === '.wp-env.override.json' || isBlueprintFile(fileName);
}

async function partner(file: string): Promise<string | null> {
  const r = await new AsyncFs({ filesOpened: 0, bytesRead: 0, dirsRead: 0 }, 2).readText(file, MAX_PARTNER_BYTES);
  return r.text;
}

/**
 * Components and problems of one declaration file's text; `relFile` is its path as locations show it. `ownFolder`:
 * the scan read this composer file as an installed theme's own (ScanResult.ownComposerFiles), and so is this.
 */
export async function parseDeclarationDocument(absFile: string, text: string, relFile: string, opts: { ownFolder?: boolean } = {}): Promise<{ components: DetectedComponent[]; problems: ScanProblem[] } | null> {
  const base = path.basename(absFile);
  const dir = path.dirname(absFile);
  const clean = text.replace(/^\uFEFF/, '');
  if (base === 'composer.json') return parseComposerJson(clean, relFile, await partner(path.join(dir, 'composer.lock')), opts);
  if (base === 'composer.lock') return parseComposerLock(clean, relFile, await partner(path.join(dir, 'composer.json')), opts);
  if (base === '.wp-env.json' || base === '.wp-env.override.json') return parseWpEnv(clean, relFile, /"\.\/?"/.test(clean) ? await selfSlugsOf(dir) : undefined);
  if (isBlueprintFile(base)) return parseBlueprint(clean, relFile);
  return null;
}
