// Commands as small objects (as in vscode's markdown-language-features): an id and an execute(); the manager
// registers each one, owns its registration and turns a thrown error into one readable notification.
import * as vscode from 'vscode';
import { ApiError } from '../core/api/errors';
import { uiPlainText } from '../core/present/format';
import { DisposableStore } from '../core/session/events';

export interface Command {
  readonly id: string;
  execute(...args: unknown[]): unknown;
}

export class CommandManager extends DisposableStore {
  register<T extends Command>(command: T): T {
    this._register(
      vscode.commands.registerCommand(command.id, async (...args: unknown[]) => {
        try {
          return await command.execute(...args);
        } catch (err) {
          void vscode.window.showErrorMessage(uiPlainText(err instanceof ApiError ? err.message : vscode.l10n.t('WP Bench: {0}', (err as Error).message)));
          return undefined;
        }
      }),
    );
    return command;
  }
}
