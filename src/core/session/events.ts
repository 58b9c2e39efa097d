// A minimal event emitter for the core (vscode's EventEmitter without vscode).
export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (value: T) => void) => Disposable;

export class Emitter<T> implements Disposable {
  private readonly listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const l of [...this.listeners]) l(value);
  }

  dispose(): void {
    this.listeners.clear();
  }
}

/** Base for objects that own disposables (as `Disposable` in vscode's markdown-language-features). */
export abstract class DisposableStore implements Disposable {
  private readonly owned: Disposable[] = [];
  private disposed = false;

  protected _register<T extends Disposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.owned.push(d);
    return d;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.owned.splice(0).reverse()) d.dispose();
  }
}
