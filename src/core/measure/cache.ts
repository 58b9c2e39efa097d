// Local results, cached by a hash of the component's files + WordPress version + PHP version + runtime (+ rounds):
// measuring unchanged files again answers at once. One JSON file per key, written atomically.
import { crypto } from '../lazyNode';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { MeasuredComponent } from './component';
import { CONTEXTS, type LocalRecord } from './method';

const SKIP = new Set(['.git', '.svn', '.hg', 'node_modules']);
const MAX_ENTRY_BYTES = 1024 * 1024;

/** sha256 over the relative path and bytes of every file that is copied into the site, in a fixed order. */
export async function componentHash(c: Pick<MeasuredComponent, 'source' | 'singleFile' | 'kind'>): Promise<string> {
  const h = crypto().createHash('sha256');
  h.update(`${c.kind}\0`);
  if (c.singleFile) {
    h.update(path.basename(c.source)).update('\0').update(await fs.readFile(c.source));
    return h.digest('hex');
  }
  const walk = async (dir: string, rel: string): Promise<void> => {
    const entries = (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (SKIP.has(e.name)) continue;
      const abs = path.join(dir, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(abs, r);
      else if (e.isFile() || e.isSymbolicLink()) {
        const data = await fs.readFile(abs).catch(() => Buffer.alloc(0));
        h.update(r).update('\0').update(String(data.length)).update('\0').update(data);
      }
    }
  };
  await walk(c.source, '');
  return h.digest('hex');
}

function isRecord(v: unknown, slug: string): v is LocalRecord {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as LocalRecord;
  if (r.source !== 'local' || r.slug !== slug || r.benchmarked !== true || typeof r.local !== 'object' || r.local === null) return false;
  if (typeof r.contexts !== 'object' || r.contexts === null) return false;
  for (const c of CONTEXTS) {
    const m = r.contexts[c];
    if (m === null) continue;
    if (typeof m !== 'object' || ![m.ttfb_delta_ms, m.memory_delta_kb, m.queries_delta].every((x) => typeof x === 'number' && Number.isFinite(x))) return false;
  }
  return true;
}

export class MeasureCache {
  private readonly dir: string;
  constructor(cacheDir: string) {
    this.dir = path.join(cacheDir, 'measure-v1');
  }

  static key(parts: Record<string, string | number>): string {
    return crypto().createHash('sha256').update(JSON.stringify(Object.entries(parts).sort())).digest('hex');
  }

  /** Where the database of a fresh install is kept for the next runs. */
  templateFile(key: string): string {
    return path.join(this.dir, 'sites', `${key}.sqlite`);
  }

  async saveTemplate(dbFile: string, target: string): Promise<void> {
    await fs.mkdir(path.dirname(target), { recursive: true });
    const tmp = `${target}.${crypto().randomBytes(6).toString('hex')}.tmp`;
    await fs.copyFile(dbFile, tmp);
    await fs.rename(tmp, target);
  }

  async get(key: string, slug: string): Promise<LocalRecord | undefined> {
    const file = path.join(this.dir, `${key}.json`);
    const st = await fs.stat(file).catch(() => undefined);
    if (!st?.isFile() || st.size > MAX_ENTRY_BYTES) return undefined;
    try {
      const v = JSON.parse(await fs.readFile(file, 'utf8'));
      return isRecord(v, slug) ? v : undefined;
    } catch {
      return undefined;
    }
  }

  async set(key: string, record: LocalRecord): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    const file = path.join(this.dir, `${key}.json`);
    const tmp = `${file}.${crypto().randomBytes(6).toString('hex')}.tmp`;
    await fs.writeFile(tmp, JSON.stringify(record));
    await fs.rename(tmp, file);
  }
}
