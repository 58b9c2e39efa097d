// The editor's stores of results (local-results.json, site-results.json): one JSON file each in the extension's
// storage, read whole when it is a regular file under its cap, written atomically (a temporary file, then rename).
import { crypto } from '../lazyNode';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** The parsed file; undefined when it is missing, not a regular file, over `maxBytes` or not JSON. */
export async function readJsonFile(file: string, maxBytes: number): Promise<unknown> {
  const st = await fs.stat(file).catch(() => undefined);
  if (!st?.isFile() || st.size > maxBytes) return undefined;
  try {
    return JSON.parse(await fs.readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
}

export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${crypto().randomBytes(6).toString('hex')}.tmp`;
  await fs.writeFile(tmp, JSON.stringify(value));
  await fs.rename(tmp, file);
}
