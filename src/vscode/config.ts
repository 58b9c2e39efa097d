// Typed view of the wpBench.* settings: application-wide ones, and resource-scoped ones per workspace folder.
import * as vscode from 'vscode';
import type { ProxySettings } from '../core/api/transport';
import type { FolderSettings, SessionSettings } from '../core/session/session';

export function readSettings(): SessionSettings {
  const c = vscode.workspace.getConfiguration('wpBench');
  // apiUrl is application-scoped: read the user value only, so a workspace can never redirect the key.
  const apiUrl = c.inspect<string>('apiUrl')?.globalValue ?? '';
  const num = (key: string, fallback: number, min: number, max: number) => {
    const v = c.get<number>(key, fallback);
    return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : fallback;
  };
  return {
    apiUrl: typeof apiUrl === 'string' ? apiUrl.trim() : '',
    ttlHours: num('cache.ttlHours', 24, 1, 24 * 30),
    concurrency: Math.floor(num('requests.concurrency', 4, 1, 16)),
    timeoutSeconds: num('requests.timeoutSeconds', 15, 1, 120),
    maxPerScan: Math.floor(num('requests.maxPerScan', 200, 0, 100_000)),
    proxy: readProxySettings(),
  };
}

/** VS Code's own proxy settings (as other extensions honour them); unset: the environment's HTTP(S)_PROXY apply. */
function readProxySettings(): ProxySettings | undefined {
  const http = vscode.workspace.getConfiguration('http');
  const proxy = (http.get<string>('proxy') ?? '').trim();
  const noProxy = (http.get<unknown[]>('noProxy') ?? []).filter((s): s is string => typeof s === 'string' && s.trim() !== '');
  const strictSSL = http.get<boolean>('proxyStrictSSL', true) !== false;
  const authorization = http.get<string | null>('proxyAuthorization') ?? undefined;
  if (!proxy && noProxy.length === 0 && strictSSL && !authorization) return undefined;
  return { ...(proxy ? { proxy } : {}), ...(noProxy.length ? { noProxy: noProxy.join(',') } : {}), strictSSL, ...(authorization ? { authorization } : {}) };
}

/** The resource-scoped settings as they apply to one folder (multi-root workspaces differ per folder). */
export function readFolderSettings(folder: vscode.Uri | undefined): FolderSettings {
  const c = vscode.workspace.getConfiguration('wpBench', folder);
  return {
    diagnosticsEnabled: c.get<boolean>('diagnostics.enabled', true) !== false,
    minimumGrade: c.get<string>('diagnostics.minimumGrade', 'C') || 'C',
    minimumGradeExplicit: explicit(c.inspect('diagnostics.minimumGrade')),
    ignore: (c.get<unknown[]>('ignore', []) ?? []).filter((s): s is string => typeof s === 'string').map((s) => s.trim()),
  };
}

function explicit(i: { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined): boolean {
  return i !== undefined && (i.globalValue !== undefined || i.workspaceValue !== undefined || i.workspaceFolderValue !== undefined);
}
