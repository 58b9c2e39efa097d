// When the workspace is scanned: a rescan asked for while a scan or its lookups run cancels the scan in progress and
// schedules exactly one more run (not zero, not one per request). It also tracks every piece of work the session
// started (cycles, key and settings changes), so whenSettled can wait for a quiet session.
import type { Disposable } from './events';

export interface ScanCycleSteps {
  /** One scan of every folder; false when `signal` cancelled it. */
  scan(signal: AbortSignal): Promise<boolean>;
  /** After a completed scan (local measurements, then lookups). */
  afterScan(): Promise<void>;
  /** The scanning state changed (the surfaces redraw). */
  changed(): void;
  /** The session is gone: no more cycles. */
  isDisposed(): boolean;
}

export class ScanCycles implements Disposable {
  private cycle: Promise<void> | undefined;
  private rescanQueued = false;
  private scanAbort: AbortController | undefined;
  private scanningValue = false;
  /** What the session started and has not finished: scan cycles, key and settings changes (see whenSettled). */
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly steps: ScanCycleSteps) {}

  get scanning(): boolean {
    return this.scanningValue;
  }

  /**
   * Scans every workspace folder in the background, then runs `afterScan`. Asked for while a scan or its lookups
   * run, it cancels the scan in progress and schedules exactly one more run; the promise resolves when no run is left.
   */
  rescan(): Promise<void> {
    this.rescanQueued = true;
    this.scanAbort?.abort();
    this.cycle ??= this.tracked(this.runCycles().finally(() => (this.cycle = undefined)));
    return this.cycle;
  }

  tracked<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    work.then(
      () => this.running.delete(work),
      () => this.running.delete(work),
    );
    return work;
  }

  /**
   * Resolves once nothing tracked is running and `isIdle` holds (no lookup in flight: a command's own lookups are
   * waited for by their count). A condition, not a pause.
   */
  async whenSettled(isIdle: () => boolean): Promise<void> {
    while (this.running.size > 0 || !isIdle()) {
      if (this.running.size > 0) await Promise.allSettled([...this.running]);
      else await new Promise<void>((r) => setImmediate(r));
    }
  }

  private async runCycles(): Promise<void> {
    while (this.rescanQueued && !this.steps.isDisposed()) {
      this.rescanQueued = false;
      const completed = await this.scanOnce();
      if (!completed) continue;
      await this.steps.afterScan();
    }
  }

  /** One scan of every folder; false when it was cancelled (a newer scan, or the window closing). */
  private async scanOnce(): Promise<boolean> {
    const abort = new AbortController();
    this.scanAbort = abort;
    this.scanningValue = true;
    this.steps.changed();
    try {
      return await this.steps.scan(abort.signal);
    } finally {
      if (this.scanAbort === abort) {
        this.scanAbort = undefined;
        this.scanningValue = false;
      }
      this.steps.changed();
    }
  }

  /** The window closes: a scan in progress stops. */
  dispose(): void {
    this.scanAbort?.abort();
  }
}
