// What the engine needs from a runtime: a server for the throwaway site on 127.0.0.1, and a way to stop it.
export type RuntimeName = 'php' | 'playground';

export interface RuntimeServer {
  baseUrl: string;
  port: number;
  pid: number | undefined;
  /** the last lines the server wrote (for error messages) */
  log: () => string;
  /** stops the server and resolves once its process has exited */
  stop: () => Promise<void>;
}
