// Fakes for the workspace session: the editor (folders, trust, prompts, settings, key) and the HTTP transport.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { HttpRequest, HttpResponse, TransportFactory } from '../../../src/core/api/transport';
import { nullLogger } from '../../../src/core/logger';
import type { DetectedComponent, ScanResult } from '../../../src/core/model';
import type { FolderSettings, SessionHost, SessionSettings } from '../../../src/core/session/session';
import { sampleBody } from './samples';

export type Reply = { status: number; body?: unknown; raw?: string; headers?: Record<string, string> };

/** A fake API: records every lookup path; each reply can be held until released. */
export function fakeApi() {
  const api = {
    sent: [] as string[],
    reply: (p: string): Reply | Promise<Reply> => ({ status: 200, body: sampleBody({ slug: p.split('/').pop(), type: p.includes('/themes/') ? 'theme' : 'plugin' }) }),
    transport: (() => ({
      request: async (req: HttpRequest): Promise<HttpResponse> => {
        const p = new URL(req.url).pathname;
        if (!p.endsWith('/me')) api.sent.push(p);
        const r = await api.reply(p);
        return { status: r.status, headers: r.headers ?? {}, body: Buffer.from(r.raw ?? JSON.stringify(r.body ?? {})) };
      },
      close: async () => undefined,
    })) as TransportFactory,
  };
  return api;
}

export function deferred<T = void>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

export const component = (slug: string, file = 'composer.json', line = 1): DetectedComponent => ({
  kind: 'plugin',
  slug,
  name: null,
  version: null,
  locations: [{ file, line, column: 1, length: slug.length, source: 'composer.json' }],
  lookup: 'yes',
});

export interface FakeHostOptions {
  folders?: string[];
  slugs?: string[];
  scan?: SessionHost['scan'];
  trusted?: boolean;
  settings?: Partial<SessionSettings>;
  folderSettings?: (root: string | undefined) => Partial<FolderSettings>;
  storageDir?: string;
  now?: () => number;
}

export function fakeHost(api: ReturnType<typeof fakeApi>, o: FakeHostOptions = {}) {
  const roots = o.folders ?? [fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-session-ws-'))];
  const prompts: string[] = [];
  const host = {
    key: 'wpb_test_key_1' as string | undefined,
    keyOrigin: undefined as string | undefined,
    trusted: o.trusted ?? true,
    answer: undefined as string | undefined,
    settingsValue: { apiUrl: 'http://127.0.0.1:9/api', ttlHours: 24, concurrency: 4, timeoutSeconds: 5, maxPerScan: 200, ...o.settings } as SessionSettings,
    prompts,
    errors: [] as string[],
    scans: 0,
    folderSettingsOf: o.folderSettings ?? (() => ({})),
  };
  const sessionHost: SessionHost = {
    folders: () => roots.map((root) => ({ root, name: path.basename(root) })),
    isTrusted: () => host.trusted,
    settings: () => host.settingsValue,
    folderSettings: (root) => ({ ignore: [], minimumGrade: 'C', minimumGradeExplicit: false, diagnosticsEnabled: true, ...host.folderSettingsOf(root) }),
    getKey: async () => host.key,
    keyOrigin: () => host.keyOrigin,
    setKeyOrigin: (origin) => void (host.keyOrigin = origin),
    ask: async (message) => {
      prompts.push(message);
      return host.answer;
    },
    error: async (message) => {
      host.errors.push(message);
      return undefined;
    },
    runCommand: async () => undefined,
    setContext: () => undefined,
    transport: api.transport,
    logger: nullLogger,
    storageDir: o.storageDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-session-store-')),
    now: o.now,
    scan:
      o.scan ??
      (async (root): Promise<ScanResult> => {
        host.scans++;
        return { root, components: (o.slugs ?? ['akismet', 'jetpack']).map((s) => component(s)), problems: [], stats: { filesOpened: 0, bytesRead: 0, dirsRead: 0 } };
      }),
  };
  return { host, sessionHost, roots };
}

