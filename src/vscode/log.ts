// The one output channel, "WP Bench", as the core's Logger. Never given the API key.
import * as vscode from 'vscode';
import type { Logger } from '../core/logger';

export function createLog(): { channel: vscode.LogOutputChannel; logger: Logger } {
  const channel = vscode.window.createOutputChannel('WP Bench', { log: true });
  return {
    channel,
    logger: {
      debug: (m) => channel.debug(m),
      info: (m) => channel.info(m),
      warn: (m) => channel.warn(m),
      error: (m) => channel.error(m),
    },
  };
}
