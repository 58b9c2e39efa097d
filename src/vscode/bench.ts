// The session's host in VS Code: workspace folders, trust, settings (per folder), prompts, context keys and the key
// store, handed to the vscode-free WorkspaceSession that owns every rule.
import * as vscode from 'vscode';
import type { TransportFactory } from '../core/api/transport';
import type { Logger } from '../core/logger';
import { WorkspaceSession, type ComponentEntry, type SessionHost } from '../core/session/session';
import type { ApiKeyStore } from './apiKey';
import { readFolderSettings, readSettings } from './config';

export type Bench = WorkspaceSession;
export type { ComponentEntry };
export { entryKey } from '../core/session/session';

export interface UiPorts {
  /** Asks the user; resolves to the chosen item title or undefined. */
  ask(message: string, ...items: string[]): Thenable<string | undefined>;
  error(message: string, ...items: string[]): Thenable<string | undefined>;
  runCommand(id: string): Thenable<unknown>;
}

const KEY_ORIGIN = 'wpBench.keyOrigin';

export function createBench(storageDir: string, keys: ApiKeyStore, transport: TransportFactory, logger: Logger, ui: UiPorts, state: vscode.Memento): Bench {
  const host: SessionHost = {
    folders: () => (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => ({ root: f.uri.fsPath, name: f.name })),
    isTrusted: () => vscode.workspace.isTrusted,
    settings: readSettings,
    folderSettings: (root) => readFolderSettings(root === undefined ? undefined : vscode.Uri.file(root)),
    getKey: () => keys.get(),
    // The origin (never the key) in global state: which API address the stored key belongs to.
    keyOrigin: () => state.get<string>(KEY_ORIGIN),
    setKeyOrigin: async (origin) => state.update(KEY_ORIGIN, origin),
    ask: async (m, ...items) => ui.ask(m, ...items),
    error: async (m, ...items) => ui.error(m, ...items),
    runCommand: async (id) => ui.runCommand(id),
    setContext: (key, value) => void vscode.commands.executeCommand('setContext', key, value),
    transport,
    logger,
    storageDir,
  };
  return new WorkspaceSession(host);
}
