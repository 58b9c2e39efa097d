// What the report draws of a browser pass, pure (unit-tested on recorded loads): one load of each side (the clean
// side and the side with the component, loaded once more after the measured rounds with frames captured) as a
// waterfall — its requests, the component's own marked, FCP, LCP and the load event — and a filmstrip: the times both
// sides are shown at, side by side, and for each side only the frames those times show (the record stays small).
import type { BrowserLoad, BrowserWaterfall, WaterfallRequest, WaterfallSide } from './types';

/** Requests the waterfall keeps per side (a page builder's hundred and more: the rest counted, not drawn). */
export const WATERFALL_MAX_REQUESTS = 120;
/** Columns of the filmstrip. */
export const FILMSTRIP_COLUMNS = 8;

const pathOf = (url: string) => url.replace(/[?#].*$/, '');

/** The request as the waterfall draws it: its URL cut to 300 characters, whether it is the component's own. */
export function waterfallRequest(r: BrowserLoad['requests'][number], folders: readonly string[]): WaterfallRequest {
  const p = pathOf(r.url);
  return {
    url: r.url.slice(0, 300),
    type: r.type,
    bytes: r.bytes,
    start_ms: r.start_ms,
    response_ms: r.response_ms,
    end_ms: r.end_ms,
    ...(r.render_blocking ? { render_blocking: true as const } : {}),
    ...(folders.some((f) => p.startsWith(f)) ? { own: true as const } : {}),
    ...(r.failed ? { failed: r.failed.slice(0, 120) } : {}),
  };
}

/**
 * The filmstrip's times: FILMSTRIP_COLUMNS steps of a round size (50, 100, 200, 250, 500 ms …) from the navigation's
 * start, the last at or after the later side's last visual change (its last frame, its LCP).
 */
export function filmstripTimes(sides: readonly BrowserLoad[]): number[] {
  const last = Math.max(100, ...sides.flatMap((l) => [l.lcp_ms ?? 0, l.fcp_ms ?? 0, ...(l.frames ?? []).map((f) => f.at_ms)]));
  const steps = [50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000];
  const step = steps.find((s) => s * (FILMSTRIP_COLUMNS - 1) >= last) ?? steps[steps.length - 1];
  return Array.from({ length: FILMSTRIP_COLUMNS }, (_, i) => i * step);
}

/** The frame a filmstrip shows at `t`: the last one captured at or before it (none before the first paint). */
export function frameAt<F extends { at_ms: number }>(frames: readonly F[], t: number): F | undefined {
  let shown: F | undefined;
  for (const f of frames) if (f.at_ms <= t && (!shown || f.at_ms >= shown.at_ms)) shown = f;
  return shown;
}

function side(load: BrowserLoad, folders: readonly string[], times: readonly number[]): WaterfallSide {
  // Refused requests stay (drawn as refused); the favicon headless Chromium asks for by itself does not.
  const sorted = load.requests.filter((r) => !(r.type === 'other' && r.url === '/favicon.ico')).sort((a, b) => a.start_ms - b.start_ms);
  const kept = sorted.slice(0, WATERFALL_MAX_REQUESTS).map((r) => waterfallRequest(r, folders));
  // Only the frames the filmstrip shows, each once.
  const frames = load.frames ?? [];
  const shown = [...new Set(times.map((t) => frameAt(frames, t)).filter((f) => f !== undefined))];
  return {
    fcp_ms: load.fcp_ms,
    lcp_ms: load.lcp_ms,
    load_ms: load.load_ms,
    end_ms: load.end_ms,
    requests: kept,
    ...(sorted.length > kept.length ? { more_requests: sorted.length - kept.length } : {}),
    ...(load.cut ? { cut: true as const } : {}),
    frames: shown.map((f) => ({ at_ms: f.at_ms, jpeg: f.jpeg })),
  };
}

/** The waterfall of the clean side's load and the measured side's (`folders`: the component's own, marked). */
export function browserWaterfall(baseline: BrowserLoad, measured: BrowserLoad, folders: readonly string[]): BrowserWaterfall {
  const times = filmstripTimes([baseline, measured]);
  return { baseline: side(baseline, folders, times), measured: side(measured, folders, times), filmstrip_ms: times };
}
