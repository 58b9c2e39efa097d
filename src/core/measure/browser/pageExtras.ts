// What a side's browser record says beyond its figures and its files (pass.ts): the layout shifts the component causes
// by node (shifts.ts), the HTML document's growth itemised (documentParts.ts), and how many files a browser could load
// lie under the component's folders in the site — so "none of its files load on the homepage" and "it has no front-end
// files" can be told apart.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { documentGrowth } from './documentParts';
import { componentShifts } from './shifts';
import type { BrowserDelta, BrowserLoad } from './types';

/** What a browser loads: scripts, styles, images, fonts (by extension). */
export const FRONT_END_FILE = /\.(m?js|css|png|jpe?g|gif|webp|avif|svg|ico|woff2?|ttf|otf|eot)$/i;
/** Walked at most this many entries (a component with more says "at least"). */
const MAX_ENTRIES = 20_000;

/** Front-end files under the component's folders in the site (`folders` site-relative: "/wp-content/plugins/acme/"). */
export async function countFrontEndFiles(siteDir: string, folders: readonly string[]): Promise<number> {
  let n = 0;
  let seen = 0;
  const walk = async (dir: string): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (++seen > MAX_ENTRIES) return;
      // Links are not followed (the copy in the site has none it would serve from elsewhere); node_modules is tooling.
      if (e.isDirectory() && e.name !== 'node_modules') await walk(path.join(dir, e.name));
      else if (e.isFile() && FRONT_END_FILE.test(e.name)) n++;
    }
  };
  for (const f of folders) if (f.endsWith('/')) await walk(path.join(siteDir, ...f.split('/').filter(Boolean)));
  return n;
}

/** The shifts, the document's growth and the front-end files of one side against the clean side's loads. */
export async function pageExtras(baseline: readonly BrowserLoad[], mine: readonly BrowserLoad[], siteDir: string, folders: readonly string[]): Promise<Pick<BrowserDelta, 'layout_shifts' | 'document' | 'front_end_files'>> {
  const shifts = componentShifts(baseline, mine);
  const document = documentGrowth(baseline, mine);
  return { ...(shifts.length ? { layout_shifts: shifts } : {}), ...(document ? { document } : {}), front_end_files: await countFrontEndFiles(siteDir, folders) };
}
