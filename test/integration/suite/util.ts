// Helpers for the integration suite (runs inside the extension host).
import * as vscode from 'vscode';
import type { WpBenchApi } from '../../../src/extension';

export const API_URL = process.env.WPBENCH_TEST_API_URL ?? '';
export const KEYS = {
  starter: 'wpb_demo_starter_7c1e4a9b2d8f3065',
  pro: 'wpb_demo_pro_3b9d6f2a8e1c4075',
  scale: 'wpb_demo_scale_9e2a7c4f1b6d8053',
  almostExhausted: 'wpb_demo_starter_low_6d3f8b1e9c2a5074',
  revoked: 'wpb_demo_revoked_5a8c2e7f3d1b9046',
};

/** The extension's internals, through the test-only command (WPBENCH_TEST_HOOKS=1): activate() exports nothing. */
export async function api(): Promise<WpBenchApi> {
  const ext = vscode.extensions.getExtension('wpbench.wp-bench');
  if (!ext) throw new Error('extension wpbench.wp-bench is not installed');
  if (!ext.isActive) await ext.activate();
  const internals = await vscode.commands.executeCommand<WpBenchApi>('wpBench.test.api');
  if (!internals) throw new Error('wpBench.test.api is not registered: run the suite with WPBENCH_TEST_HOOKS=1');
  await internals.ready;
  return internals;
}

export async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Usage of a demo key, read from the emulator's /me (free): the ground truth of requests counted. */
export async function usage(key: string): Promise<number> {
  const res = await fetch(`${API_URL}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await res.json()) as { used: number };
  return body.used;
}

export function workspaceFile(rel: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder');
  return vscode.Uri.joinPath(folder.uri, rel);
}

export async function positionOf(uri: vscode.Uri, needle: string): Promise<vscode.Position> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const offset = doc.getText().indexOf(needle);
  if (offset < 0) throw new Error(`${needle} not found in ${uri.fsPath}`);
  return doc.positionAt(offset + 1);
}

export function hoverText(hovers: vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))
    .join('\n');
}

/** Sets the API address through the command, as a user would (the command asks first when given an argument). */
export async function setApiUrl(url: string): Promise<string | undefined> {
  const a = await api();
  a.answerNext('Change the Address');
  return vscode.commands.executeCommand<string>('wpBench.setApiUrl', url);
}

/** Whether the process `pid` has ended (or was never started). */
export function gone(pid: number | undefined): boolean {
  if (pid === undefined) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}
