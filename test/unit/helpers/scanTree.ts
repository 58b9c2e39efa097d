// Small trees on disk for the scanner's tests: a temporary folder, files put in it, and look-ups in a scan result.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ScanResult } from '../../../src/core/model';

export function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'wpbench-scan-'));
}
export function put(root: string, rel: string, content: string | Buffer = ''): void {
  const f = path.join(root, rel);
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, content);
}
export const pluginPhp = (name: string, extra = '') => `<?php\n/**\n * Plugin Name: ${name}\n${extra} */\n`;
export const find = (r: ScanResult, kind: string, slug: string) => r.components.find((c) => c.kind === kind && c.slug === slug);
export const slugs = (r: ScanResult, kind: string) => r.components.filter((c) => c.kind === kind).map((c) => c.slug);
