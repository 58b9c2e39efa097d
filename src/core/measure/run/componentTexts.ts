// The texts of a component's files where an element's id or class can be named (PHP, scripts, styles, HTML
// templates), for the layout-shift findings (findings/browser.ts): relative to the findings' root, "/" separated.
// Capped (files, size): a large component's vendor bundles are read up to the caps, the rest left out.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { MeasuredComponent } from '../component/component';
import type { ComponentText } from '../findings/browser';

const TEXT_FILE = /\.(php|m?js|css|html?)$/i;
const MAX_FILES = 3000;
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const MAX_TOTAL_BYTES = 32 * 1024 * 1024;

export async function componentTexts(root: string, component: Pick<MeasuredComponent, 'source' | 'singleFile' | 'mustUse' | 'muFolders'>): Promise<ComponentText[]> {
  const out: ComponentText[] = [];
  let total = 0;
  const read = async (file: string) => {
    const st = await fs.lstat(file).catch(() => undefined);
    if (!st?.isFile() || st.size > MAX_FILE_BYTES || total + st.size > MAX_TOTAL_BYTES || out.length >= MAX_FILES) return;
    total += st.size;
    out.push({ file: path.relative(root, file).split(path.sep).join('/'), text: await fs.readFile(file, 'utf8').catch(() => '') });
  };
  const walk = async (dir: string): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= MAX_FILES) return;
      if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')) await walk(path.join(dir, e.name));
      else if (e.isFile() && TEXT_FILE.test(e.name)) await read(path.join(dir, e.name));
    }
  };
  if (component.singleFile || component.mustUse) {
    await read(component.source);
    for (const f of component.mustUse ? (component.muFolders ?? []) : []) await walk(path.join(path.dirname(component.source), f));
  } else await walk(component.source);
  return out;
}
