// What must survive a reload (extension) or a run (CLI): the 429 block until the reset and a rejected key — both
// belong to one key (by fingerprint, never the key) — and lookups that failed in the last 10 minutes. One small JSON
// file per API address, written whole (temp + rename); a missing or unreadable file is an empty state.
import { crypto } from '../lazyNode';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { ApiError, ApiErrorKind } from '../api/errors';

/** A failed lookup (5xx, unreadable answer, network) is not asked again for this long. */
export const FAILED_LOOKUP_MS = 10 * 60 * 1000;
/** A 429 without a usable reset time blocks for this long at most (the client's own rule gives the month's end). */
const MAX_BLOCK_MS = 40 * 24 * 3600 * 1000;

type Rejection = { kind: 'invalid-key' | 'forbidden'; message: string };

interface GuardFile {
  version: 2;
  /** Key fingerprint → epoch ms until which no plugin/theme request is sent with that key (its quota is used up). */
  blocked?: Record<string, number>;
  /** Key fingerprint → how the API refused that key. */
  rejected?: Record<string, Rejection>;
  /** `kind/slug` → epoch ms until which the slug is not asked again. */
  failed?: Record<string, number>;
}

/** Keys remembered at most (blocks and refusals each): a shared cache folder cannot grow the file without bound. */
const MAX_KEYS = 20;

export function keyFingerprint(key: string): string {
  return crypto().createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 16);
}

/** Errors a retry soon cannot fix for one slug: remembered for FAILED_LOOKUP_MS. */
const REMEMBERED: ReadonlySet<ApiErrorKind> = new Set<ApiErrorKind>(['server', 'unreadable', 'network', 'timeout']);

function isRejection(r: unknown): r is Rejection {
  const x = r as Partial<Rejection> | null;
  return !!x && (x.kind === 'invalid-key' || x.kind === 'forbidden') && typeof x.message === 'string';
}

/** Keeps the newest `MAX_KEYS` entries (insertion order). */
function bounded<T>(map: Record<string, T>): Record<string, T> {
  const entries = Object.entries(map);
  return Object.fromEntries(entries.slice(Math.max(0, entries.length - MAX_KEYS)));
}

export class QuotaGuard {
  private state: GuardFile = { version: 2 };
  private loaded: Promise<void> | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** The file for one API in a folder (the extension's global storage, the CLI's cache folder). */
  static fileFor(dir: string, apiId: string): string {
    return path.join(dir, `quota-state-${crypto().createHash('sha256').update(apiId).digest('hex').slice(0, 12)}.json`);
  }

  load(): Promise<void> {
    return (this.loaded ??= this.read());
  }

  private async read(): Promise<void> {
    if (!this.file) return;
    try {
      const st = await fs.stat(this.file);
      if (!st.isFile() || st.size > 1024 * 1024) return;
      const parsed = JSON.parse(await fs.readFile(this.file, 'utf8')) as { version?: unknown; blocked?: unknown; rejected?: unknown; failed?: unknown };
      if (!parsed || typeof parsed !== 'object' || (parsed.version !== 1 && parsed.version !== 2)) return;
      const s: GuardFile = { version: 2 };
      // Version 1 kept one block for whichever key was used: it is not known whose, so it is dropped (one request
      // tells again); its single refusal was already by fingerprint.
      if (parsed.version === 2 && parsed.blocked && typeof parsed.blocked === 'object') {
        for (const [fp, until] of Object.entries(parsed.blocked)) {
          if (typeof until === 'number' && Number.isFinite(until)) (s.blocked ??= {})[fp] = Math.min(until, this.now() + MAX_BLOCK_MS);
        }
      }
      const r = parsed.rejected as Record<string, unknown> | null;
      const v1Print = r?.fingerprint;
      if (parsed.version === 1 && typeof v1Print === 'string' && isRejection(r)) {
        s.rejected = { [v1Print]: { kind: r.kind, message: r.message.slice(0, 300) } };
      } else if (parsed.version === 2 && r && typeof r === 'object') {
        for (const [fp, v] of Object.entries(r)) if (isRejection(v)) (s.rejected ??= {})[fp] = { kind: v.kind, message: v.message.slice(0, 300) };
      }
      if (parsed.failed && typeof parsed.failed === 'object') {
        s.failed = {};
        for (const [k, v] of Object.entries(parsed.failed as Record<string, unknown>)) if (typeof v === 'number' && Number.isFinite(v)) s.failed[k] = Math.min(v, this.now() + FAILED_LOOKUP_MS);
      }
      this.state = s;
    } catch {
      // Missing, unreadable or garbage: nothing is blocked.
    }
  }

  private save(): Promise<void> {
    if (!this.file) return Promise.resolve();
    const file = this.file;
    const text = JSON.stringify(this.state);
    this.writing = this.writing.then(async () => {
      try {
        await fs.mkdir(path.dirname(file), { recursive: true });
        const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
        await fs.writeFile(tmp, text, { mode: 0o600 });
        await fs.rename(tmp, file);
      } catch {
        // An unwritable folder: the state lasts for this session only.
      }
    });
    return this.writing;
  }

  /** Epoch ms until which nothing may be sent with this key, or null (a passed reset clears it; no key: null). */
  blockedUntil(key: string | undefined): number | null {
    if (!key) return null;
    const fp = keyFingerprint(key);
    const until = this.state.blocked?.[fp];
    if (until === undefined) return null;
    if (this.now() >= until) {
      delete this.state.blocked![fp];
      void this.save();
      return null;
    }
    return until;
  }

  /** The refusal of this key, if the API refused it before (by fingerprint). */
  rejection(key: string): Rejection | undefined {
    const r = this.state.rejected?.[keyFingerprint(key)];
    return r ? { kind: r.kind, message: r.message } : undefined;
  }

  /** True while a failed lookup of this slug is remembered. */
  recentlyFailed(kind: string, slug: string): boolean {
    const until = this.state.failed?.[`${kind}/${slug}`];
    return until !== undefined && this.now() < until;
  }

  /** Records what an error means for later requests (a block, a refused key, a slug that failed). */
  async record(error: ApiError, key: string | undefined, item?: { kind: string; slug: string }): Promise<void> {
    if (error.kind === 'quota-exceeded' && key) {
      const reset = error.details.resetAt;
      const fp = keyFingerprint(key);
      const blocked = (this.state.blocked ??= {});
      delete blocked[fp];
      blocked[fp] = typeof reset === 'number' && reset > this.now() ? Math.min(reset, this.now() + MAX_BLOCK_MS) : this.now() + 3600_000;
      this.state.blocked = bounded(blocked);
    } else if ((error.kind === 'invalid-key' || error.kind === 'forbidden') && key) {
      const fp = keyFingerprint(key);
      const rejected = (this.state.rejected ??= {});
      delete rejected[fp];
      rejected[fp] = { kind: error.kind, message: error.message.slice(0, 300) };
      this.state.rejected = bounded(rejected);
    } else if (item && REMEMBERED.has(error.kind)) {
      const failed = (this.state.failed ??= {});
      for (const [k, until] of Object.entries(failed)) if (until <= this.now()) delete failed[k];
      failed[`${item.kind}/${item.slug}`] = this.now() + FAILED_LOOKUP_MS;
    } else {
      return;
    }
    await this.save();
  }

  /** A key was set (even the same one again): refusals and blocks are forgotten (the user says the key is good now). */
  async keyChanged(): Promise<void> {
    delete this.state.rejected;
    delete this.state.blocked;
    await this.save();
  }

  /** A lookup succeeded: it is no longer remembered as failed. */
  succeeded(kind: string, slug: string): void {
    const failed = this.state.failed;
    if (failed && failed[`${kind}/${slug}`] !== undefined) {
      delete failed[`${kind}/${slug}`];
      void this.save();
    }
  }
}
