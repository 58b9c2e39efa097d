// The API key lives in SecretStorage only. Every call is wrapped: a failing keychain is logged, never fatal.
import * as vscode from 'vscode';
import type { Logger } from '../core/logger';

const SECRET_ID = 'wpBench.apiKey';

export class ApiKeyStore implements vscode.Disposable {
  private cached: string | undefined;
  private loaded = false;
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly subscription: vscode.Disposable;
  /** SecretStorage's change events seen for the key (our own writes come back as one too). */
  echoes = 0;

  constructor(private readonly secrets: vscode.SecretStorage, private readonly logger: Logger) {
    // Fires in every window when any window changes the key.
    this.subscription = secrets.onDidChange(async (e) => {
      if (e.key !== SECRET_ID) return;
      this.echoes++;
      try {
        this.update((await this.secrets.get(SECRET_ID))?.trim() || undefined);
      } catch (err) {
        this.logger.error(`could not read the API key from secret storage: ${(err as Error).message}`);
      }
    });
  }

  async get(): Promise<string | undefined> {
    if (this.loaded) return this.cached;
    try {
      this.cached = (await this.secrets.get(SECRET_ID))?.trim() || undefined;
    } catch (err) {
      this.logger.error(`could not read the API key from secret storage: ${(err as Error).message}`);
      this.cached = undefined;
    }
    this.loaded = true;
    return this.cached;
  }

  /**
   * Saves the key and reports one change, even for the same key again (a renewed subscription). The cached value is
   * set first, so SecretStorage's echo of this write reads the same value and reports nothing: one write, one change.
   * (Two reports let the second one forget a 429 the first had just met, and send again.)
   */
  async set(key: string): Promise<void> {
    await this.write(key.trim(), () => this.secrets.store(SECRET_ID, key.trim()));
  }

  async clear(): Promise<void> {
    await this.write(undefined, () => this.secrets.delete(SECRET_ID));
  }

  private async write(value: string | undefined, save: () => Thenable<void>): Promise<void> {
    const before = { cached: this.cached, loaded: this.loaded };
    this.cached = value;
    this.loaded = true;
    try {
      await save();
    } catch (err) {
      // Put the old value back, unless a later write has replaced ours meanwhile.
      if (this.cached === value) {
        this.cached = before.cached;
        this.loaded = before.loaded;
      }
      throw err;
    }
    this.emitter.fire();
  }

  /** Fires once per real change, whether our own write or SecretStorage's event is seen first. */
  private update(value: string | undefined): void {
    const changed = !this.loaded || this.cached !== value;
    this.cached = value;
    this.loaded = true;
    if (changed) this.emitter.fire();
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
