// What must survive a reload (extension) or a run (CLI): the 429 block until the reset, a rejected key (by
// fingerprint, never the key) and lookups that failed in the last 10 minutes. One small JSON file per API,
// written whole (temp + rename); a missing or unreadable file is an empty state.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { ApiError, ApiErrorKind } from '../api/errors';

/** A failed lookup (5xx, unreadable answer, network) is not asked again for this long. */
export const FAILED_LOOKUP_MS = 10 * 60 * 1000;
/** A 429 without a usable reset time blocks for this long at most (the client's own rule gives the month's end). */
const MAX_BLOCK_MS = 40 * 24 * 3600 * 1000;

interface GuardFile {
  version: 1;
  /** Epoch ms until which no plugin/theme request is sent. */
  blockedUntil?: number;
  /** sha-256 prefix of the key the API refused, and how. */
  rejected?: { fingerprint: string; kind: 'invalid-key' | 'forbidden'; message: string };
  /** `kind/slug` → epoch ms until which the slug is not asked again. */
  failed?: Record<string, number>;
}

export function keyFingerprint(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 16);
}

/** Errors a retry soon cannot fix for one slug: remembered for FAILED_LOOKUP_MS. */
const REMEMBERED: ReadonlySet<ApiErrorKind> = new Set<ApiErrorKind>(['server', 'unreadable', 'network', 'timeout']);

export class QuotaGuard {
  private state: GuardFile = { version: 1 };
  private loaded: Promise<void> | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** The file for one API in a folder (the extension's global storage, the CLI's cache folder). */
  static fileFor(dir: string, apiId: string): string {
    return path.join(dir, `quota-state-${createHash('sha256').update(apiId).digest('hex').slice(0, 12)}.json`);
  }

  load(): Promise<void> {
    return (this.loaded ??= this.read());
  }

  private async read(): Promise<void> {
    if (!this.file) return;
    try {
      const st = await fs.stat(this.file);
      if (!st.isFile() || st.size > 1024 * 1024) return;
      const parsed = JSON.parse(await fs.readFile(this.file, 'utf8')) as Partial<GuardFile>;
      if (!parsed || typeof parsed !== 'object' || parsed.version !== 1) return;
      const s: GuardFile = { version: 1 };
      if (typeof parsed.blockedUntil === 'number' && Number.isFinite(parsed.blockedUntil)) s.blockedUntil = Math.min(parsed.blockedUntil, this.now() + MAX_BLOCK_MS);
      const r = parsed.rejected;
      if (r && typeof r.fingerprint === 'string' && (r.kind === 'invalid-key' || r.kind === 'forbidden') && typeof r.message === 'string') {
        s.rejected = { fingerprint: r.fingerprint, kind: r.kind, message: r.message.slice(0, 300) };
      }
      if (parsed.failed && typeof parsed.failed === 'object') {
        s.failed = {};
        for (const [k, v] of Object.entries(parsed.failed)) if (typeof v === 'number' && Number.isFinite(v)) s.failed[k] = Math.min(v, this.now() + FAILED_LOOKUP_MS);
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

  /** Epoch ms until which nothing may be sent, or null (a passed reset clears it). */
  blockedUntil(): number | null {
    const until = this.state.blockedUntil;
    if (until === undefined) return null;
    if (this.now() >= until) {
      delete this.state.blockedUntil;
      void this.save();
      return null;
    }
    return until;
  }

  /** The refusal of this key, if the API refused it before (by fingerprint). */
  rejection(key: string): { kind: 'invalid-key' | 'forbidden'; message: string } | undefined {
    const r = this.state.rejected;
    return r && r.fingerprint === keyFingerprint(key) ? { kind: r.kind, message: r.message } : undefined;
  }

  /** True while a failed lookup of this slug is remembered. */
  recentlyFailed(kind: string, slug: string): boolean {
    const until = this.state.failed?.[`${kind}/${slug}`];
    return until !== undefined && this.now() < until;
  }

  /** Records what an error means for later requests (a block, a refused key, a slug that failed). */
  async record(error: ApiError, key: string | undefined, item?: { kind: string; slug: string }): Promise<void> {
    if (error.kind === 'quota-exceeded') {
      const reset = error.details.resetAt;
      this.state.blockedUntil = typeof reset === 'number' && reset > this.now() ? Math.min(reset, this.now() + MAX_BLOCK_MS) : this.now() + 3600_000;
    } else if ((error.kind === 'invalid-key' || error.kind === 'forbidden') && key) {
      this.state.rejected = { fingerprint: keyFingerprint(key), kind: error.kind, message: error.message.slice(0, 300) };
    } else if (item && REMEMBERED.has(error.kind)) {
      const failed = (this.state.failed ??= {});
      for (const [k, until] of Object.entries(failed)) if (until <= this.now()) delete failed[k];
      failed[`${item.kind}/${item.slug}`] = this.now() + FAILED_LOOKUP_MS;
    } else {
      return;
    }
    await this.save();
  }

  /** A key was set (even the same one again): its refusal and the block are forgotten. */
  async keyChanged(): Promise<void> {
    delete this.state.rejected;
    delete this.state.blockedUntil;
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
