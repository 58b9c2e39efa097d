// What the engine needs from a runtime: a server for the throwaway site on 127.0.0.1, and a way to stop it.
export type RuntimeName = 'php' | 'playground';

export interface RuntimeServer {
  baseUrl: string;
  port: number;
  /** the sandbox's own network: the site is reached through this Unix socket (a relay inside the sandbox) */
  socketPath?: string;
  /** what the component's PHP can reach over the network, for the record */
  network?: 'none' | 'host';
  pid: number | undefined;
  /** the last lines the server wrote (for error messages) */
  log: () => string;
  /** stops the server and resolves once its process has exited */
  stop: () => Promise<void>;
}
