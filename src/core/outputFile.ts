// Writing a report where the user asked (`check --output FILE`, the editor's Export Report). The path may lie in a
// cloned repository: a committed `report.html -> ../victim` or a FIFO must not be written through or opened. The
// text goes to a new temporary file in the same folder, renamed into place, so a failed write leaves the old file.
import { crypto } from './lazyNode';
import * as fs from 'fs';
import * as fsp from 'fs/promises';
import * as path from 'path';
import { l10n } from './l10n';

export class OutputFileError extends Error {
  /** `refused`: the path is not a regular file (nothing was opened); `failed`: the write failed, the old file is kept. */
  constructor(readonly reason: 'refused' | 'failed', message: string) {
    super(message);
    this.name = 'OutputFileError';
  }
}

function what(st: fs.Stats): string {
  if (st.isSymbolicLink()) return l10n.t('a symbolic link');
  if (st.isFIFO()) return l10n.t('a FIFO');
  if (st.isDirectory()) return l10n.t('a folder');
  if (st.isSocket()) return l10n.t('a socket');
  if (st.isCharacterDevice() || st.isBlockDevice()) return l10n.t('a device');
  return l10n.t('not a regular file');
}

/** Whether `p` lies strictly below `base` (lexically). */
function below(base: string, p: string): string | undefined {
  const r = path.relative(base, p);
  return r === '' || r === '..' || r.startsWith(`..${path.sep}`) || path.isAbsolute(r) ? undefined : r;
}

/**
 * The first folder between `base` (excluded) and `dir` (included) that is a symbolic link, if any. Only the part of
 * the path inside `base` is looked at: a link there may be committed in the repository (`reports -> ../victim`),
 * while links above it (macOS's `/tmp`, a home folder on another disk) are the user's own and are followed.
 */
async function linkedFolder(base: string, dir: string): Promise<string | undefined> {
  const r = below(path.resolve(base), dir);
  if (r === undefined) return undefined;
  let cur = path.resolve(base);
  for (const part of r.split(path.sep)) {
    cur = path.join(cur, part);
    const st = await fsp.lstat(cur).catch(() => undefined);
    if (!st) return undefined; // not there: the write fails later, nothing is followed
    if (st.isSymbolicLink()) return cur;
  }
  return undefined;
}

/**
 * The existing file at `file` (lstat: a link is not followed), or undefined when there is none. Throws
 * OutputFileError('refused') for a symbolic link, FIFO, folder, socket or device, and, when `base` is given (the
 * current folder of the CLI, the workspace folder of the editor), for a path that passes through a folder inside
 * `base` that is a symbolic link.
 */
export async function checkOutputPath(file: string, base?: string): Promise<fs.Stats | undefined> {
  const link = base === undefined ? undefined : await linkedFolder(base, path.dirname(path.resolve(file)));
  if (link !== undefined) {
    throw new OutputFileError(
      'refused',
      l10n.t('{0} passes through {1}, a symbolic link to a folder inside {2} (a committed link can lead out of the repository): nothing was written. Choose a path without the link.', file, link, path.resolve(base!)),
    );
  }
  const st = await fsp.lstat(file).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw new OutputFileError('failed', l10n.t('Could not write {0} ({1}).', file, err.code ?? 'error'));
  });
  if (st && !st.isFile()) {
    throw new OutputFileError('refused', l10n.t('{0} is {1}, not a regular file: nothing was written. Remove it or choose another path.', file, what(st)));
  }
  return st;
}

/** Replaces (or creates) `file` with `text`: temporary file in the same folder, then rename. `base`: see checkOutputPath. */
export async function writeOutputFile(file: string, text: string, base?: string): Promise<void> {
  const existing = await checkOutputPath(file, base);
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${crypto().randomBytes(6).toString('hex')}.tmp`);
  let handle: fsp.FileHandle | undefined;
  try {
    // 'wx' (O_CREAT | O_EXCL): never opens something already there, a planted link included.
    handle = await fsp.open(tmp, 'wx', existing ? existing.mode & 0o666 : 0o666);
    await handle.writeFile(text, 'utf8');
    await handle.sync();
    await handle.close();
    handle = undefined;
    await fsp.rename(tmp, file);
  } catch (err) {
    await handle?.close().catch(() => undefined);
    await fsp.rm(tmp, { force: true }).catch(() => undefined);
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new OutputFileError('failed', l10n.t('Could not write {0} ({1}); the previous file, if any, is unchanged.', file, code));
  }
}
