// Local records with browser figures for the tests of `measure --baseline-ref --browser` (the comparison and the
// reports): acme-plugin as localRecord builds it, with what its homepage adds in the browser.
import { withBrowser } from '../../../src/core/measure/browser/figures';
import { DESKTOP, type BrowserFigures } from '../../../src/core/measure/browser/types';
import type { LocalRecord } from '../../../src/core/measure/record/method';
import { localRecord } from './localRecords';

export const ZERO_BROWSER: BrowserFigures = { bytes_kb: 0, requests: 0, render_blocking: 0, fcp_ms: 0, lcp_ms: 0, tbt_ms: 0, cls: 0 };
const SPREAD = { bytes_kb: 0, fcp_ms: 8, lcp_ms: 9, tbt_ms: 4, cls: 0 };

/** A record of acme-plugin (5 rounds) whose homepage adds `d` in the browser, with the spread `spread` (desktop, 5 loads a side). */
export function browserRecord(d: Partial<BrowserFigures>, spread: Partial<typeof SPREAD> = {}): LocalRecord {
  const info = { chromium: '140.0.1', device: 'desktop' as const, rounds: 5, profile: DESKTOP, sandbox: 'bubblewrap' as const };
  return withBrowser(localRecord('Acme', 10, 1024, 2, 'ok', 5), { delta: { ...ZERO_BROWSER, ...d, spread: { ...SPREAD, ...spread }, assets: [] }, baseline: { ...ZERO_BROWSER, bytes_kb: 30, requests: 2, render_blocking: 1, fcp_ms: 120, lcp_ms: 130 }, info });
}
