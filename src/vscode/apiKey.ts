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

  constructor(private readonly secrets: vscode.SecretStorage, private readonly logger: Logger) {
    // Fires in every window when any window changes the key.
    this.subscription = secrets.onDidChange(async (e) => {
      if (e.key !== SECRET_ID) return;
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

  async set(key: string): Promise<void> {
    await this.secrets.store(SECRET_ID, key.trim());
    this.update(key.trim());
  }

  async clear(): Promise<void> {
    await this.secrets.delete(SECRET_ID);
    this.update(undefined);
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
