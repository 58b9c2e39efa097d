// A script's main-thread time from a load's trace (devtools.timeline, as DevTools' Performance panel and Lighthouse's
// bootup-time read it): the renderer main thread's EvaluateScript, FunctionCall and v8.compile events, grouped by the
// script's URL; an event inside another counted one (a function called while a script evaluates) is not counted twice.
// Pure.

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; fileName?: string } };
}

const SCRIPT_EVENTS = new Set(['EvaluateScript', 'FunctionCall', 'v8.compile', 'v8.compileModule', 'v8.evaluateModule', 'TimerFire', 'EventDispatch', 'FireAnimationFrame']);

/** Main-thread ms per script URL, largest first. */
export function scriptTimes(events: readonly TraceEvent[]): { url: string; main_thread_ms: number }[] {
  const main = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (e.ph !== 'X' || !SCRIPT_EVENTS.has(e.name) || typeof e.dur !== 'number') continue;
    const key = `${e.pid}:${e.tid}`;
    if (main.size && !main.has(key)) continue;
    const list = byThread.get(key) ?? [];
    list.push(e);
    byThread.set(key, list);
  }
  const total = new Map<string, number>();
  for (const list of byThread.values()) {
    list.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
    let coveredUntil = -Infinity;
    for (const e of list) {
      const url = e.args?.data?.url || e.args?.data?.fileName;
      // Events without a URL (a timer's wrapper) do not cover their children: the function they call names its script.
      if (!url) continue;
      if (e.ts < coveredUntil) continue;
      coveredUntil = e.ts + e.dur!;
      total.set(url, (total.get(url) ?? 0) + e.dur! / 1000);
    }
  }
  return [...total].map(([url, ms]) => ({ url, main_thread_ms: Math.round(ms * 10) / 10 })).sort((a, b) => b.main_thread_ms - a.main_thread_ms);
}
