// The session's vocabulary: what the editor (or a test) provides (SessionHost, the settings) and what the session
// builds from the scans (ComponentEntry). Its own file so the session's collaborators share it without importing
// the session itself; session.ts re-exports every name.
import type { ProxySettings, TransportFactory } from '../api/transport';
import type { Logger } from '../logger';
import type { LookupItem } from '../lookup/lookupService';
import type { ComponentKind, ComponentLocation, LookupDecision, ScanResult, VersionSource } from '../model';

export interface ComponentEntry {
  kind: ComponentKind;
  slug: string;
  name: string | null;
  version: string | null;
  /** Absolute file paths with 1-based line/column. */
  locations: { file: string; line: number; column: number; length: number; source: ComponentLocation['source'] }[];
  /** Its header's Update URI points away from wordpress.org (a fork or a custom plugin with a w.org-like slug). */
  possibleFork: boolean;
  /** A header's Plugin/Theme/Update URI names this slug on wordpress.org. */
  wordpressOrgUri: boolean;
  /** Every declaration is the site's own must-use code (see DetectedComponent.mustUse). */
  mustUse: boolean;
  /** Every header that declares it lies outside its workspace folder (see DetectedComponent.outsideWorkspace). */
  outsideWorkspace: boolean;
  /** Looked up, or why not (lookupDecision over every place that declares it; `ignored` is not set here). */
  lookup: LookupDecision;
  /** Workspace folders (roots) that declare it. */
  folders: string[];
  /** When the places that install it disagree on the version (see DetectedComponent.versions). */
  versions?: VersionSource[];
}

/** Application-wide settings (one value per window). */
export interface SessionSettings {
  apiUrl: string;
  ttlHours: number;
  concurrency: number;
  timeoutSeconds: number;
  maxPerScan: number;
  /** The editor's proxy settings (VS Code: http.proxy, http.noProxy, http.proxyStrictSSL, http.proxyAuthorization). */
  proxy?: ProxySettings;
}

/** Resource-scoped settings, read per workspace folder. */
export interface FolderSettings {
  ignore: string[];
  minimumGrade: string;
  /** The user set diagnostics.minimumGrade explicitly (it then overrides .wp-bench.json). */
  minimumGradeExplicit: boolean;
  diagnosticsEnabled: boolean;
}

/** Everything the session needs from the editor (or a test). */
export interface SessionHost {
  /** Workspace folders on disk (file scheme). */
  folders(): { root: string; name: string }[];
  isTrusted(): boolean;
  settings(): SessionSettings;
  folderSettings(root: string | undefined): FolderSettings;
  getKey(): Promise<string | undefined>;
  /** The API origin the stored key was saved or validated for (persisted), undefined when not known yet. */
  keyOrigin(): string | undefined;
  setKeyOrigin(origin: string | undefined): Promise<void> | void;
  /** A question with buttons; resolves to the chosen button or undefined (dismissed). */
  ask(message: string, ...items: string[]): Promise<string | undefined>;
  error(message: string, ...items: string[]): Promise<string | undefined>;
  runCommand(id: string): Promise<unknown>;
  setContext(key: string, value: unknown): void;
  transport: TransportFactory;
  logger: Logger;
  /** Cache and persisted quota state live here. */
  storageDir: string;
  now?: () => number;
  /** Scanner (default: scanWorkspace with asynchronous I/O). */
  scan?: (root: string, signal: AbortSignal) => Promise<ScanResult>;
}

export type SessionState = 'idle' | 'scanning' | 'looking-up';

export function entryKey(kind: ComponentKind, slug: string): string {
  return `${kind}/${slug}`;
}

/** How lookupAll was asked: `force` re-asks fresh answers, `only` narrows the list, `consented` passed the per-scan limit. */
export interface LookupAllOptions {
  force?: boolean;
  only?: LookupItem[];
  consented?: boolean;
}
