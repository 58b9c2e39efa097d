// browser/: `measure PATH --browser`, what the visitor pays: the homepage of each side loaded in headless Chromium
// after the server rounds. This folder holds the shapes (this file, pure: record/ reads them), the arithmetic of the
// figures (figures.ts, pure), the gate every browser request goes through (gate.ts), Chromium found, launched and held
// (chromium.ts), one page load through CDP (load.ts, with the page's observers in pageScript.ts) and the pass the run
// calls (pass.ts). May import site/, machine/, database/, options/ and record/ below it; only run/ above imports it.
//
// The shapes: what one load recorded (BrowserLoad, kept whole for the later surfaces: the waterfall, the filmstrip,
// findings' main-thread time) and what the record says (BrowserDelta in contexts.homepage.browser, BrowserFigures in
// local.baseline.homepage.browser, BrowserInfo in local.browser).

/** The network and CPU a load is given (Lighthouse's throttling presets, applied through CDP). */
export interface BrowserProfile {
  name: 'desktop' | 'mobile';
  /** download and upload throughput, kilobits per second (1 kb = 1024 bits, as Lighthouse counts) */
  throughput_kbps: number;
  /** round-trip time added to every request, ms */
  rtt_ms: number;
  /** CPU slowdown (Emulation.setCPUThrottlingRate; 1: none) */
  cpu_slowdown: number;
  width: number;
  height: number;
  device_scale_factor: number;
  mobile: boolean;
}

/** Lighthouse's desktop preset ("broadband": 10,240 kb/s, 40 ms RTT, no CPU slowdown, 1350×940). */
export const DESKTOP: BrowserProfile = { name: 'desktop', throughput_kbps: 10 * 1024, rtt_ms: 40, cpu_slowdown: 1, width: 1350, height: 940, device_scale_factor: 1, mobile: false };
/** Lighthouse's mobile preset (Slow 4G: 1,638.4 kb/s, 150 ms RTT, 4× CPU; Moto G Power's 412×823). */
export const MOBILE: BrowserProfile = { name: 'mobile', throughput_kbps: 1.6 * 1024, rtt_ms: 150, cpu_slowdown: 4, width: 412, height: 823, device_scale_factor: 1.75, mobile: true };

export type ResourceKind = 'document' | 'script' | 'stylesheet' | 'image' | 'font' | 'fetch' | 'other';

/** One request of a load, as CDP's Network domain saw it. */
export interface LoadRequest {
  /** site-relative path with query ("/wp-content/plugins/acme/app.js?ver=1.0"), or the full URL of a blocked one */
  url: string;
  type: ResourceKind;
  /** bytes on the wire (encodedDataLength: headers and body as the gate sent them, compressed where it compresses) */
  bytes: number;
  status: number;
  /** Chromium's render-blocking judgement (Network.requestWillBeSent's renderBlockingBehavior === "Blocking") */
  render_blocking: boolean;
  /** ms from the navigation's start: sent, first byte, finished */
  start_ms: number;
  response_ms: number | null;
  end_ms: number | null;
  /** failed or aborted (a request out of the site: blocked) */
  failed?: string;
}

/** A script's main-thread time in one load (tracing: EvaluateScript, FunctionCall, TimerFire… by the script's URL). */
export interface ScriptTime {
  url: string;
  main_thread_ms: number;
}

/** A long task of the main thread (ms from the navigation's start). */
export interface LongTask {
  start_ms: number;
  duration_ms: number;
}

/** A node a layout shift moved, or one a script inserted just before it (what the page saw of it). */
export interface ShiftNode {
  /** the element: tag, id and up to three classes ("div#calib-content.box"); a text node's parent element */
  node: string;
  /** the ids ("#x") and classes (".y") of the element and its ancestors, nearest first (at most 12): what names it */
  names: string[];
}

/** A layout shift not caused by recent input (ms from the navigation's start). */
export interface LayoutShift {
  start_ms: number;
  value: number;
  /** the nodes it moved (LayoutShift.sources: at most five, the largest first) */
  sources?: ShiftNode[];
  /** elements a script inserted after the page was parsed, since the previous shift (at most a second before it) */
  inserted?: ShiftNode[];
}

/** What the page's HTML document holds, as it arrived (decoded): its size and its inline scripts and styles with an id. */
export interface DocumentParts {
  html_bytes: number;
  /** each inline `<script id>` or `<style id>` element, whole (tags included), by its id */
  inline: { id: string; tag: 'script' | 'style'; bytes: number }[];
}

/** Everything one page load recorded: the figures are computed from it (figures.ts), the later surfaces read it too. */
export interface BrowserLoad {
  /** which side was loaded: "baseline" (clean), "measured", "ref" (--baseline-ref), or a --site configuration's id */
  side: string;
  round: number;
  fcp_ms: number | null;
  lcp_ms: number | null;
  /** the largest paint's image (site-relative path or URL), when it was an image */
  lcp_url?: string;
  /** the load event, ms from the navigation's start */
  load_ms: number | null;
  /** when observation stopped (the settle window's end, or the time limit), ms */
  end_ms: number;
  long_tasks: LongTask[];
  layout_shifts: LayoutShift[];
  requests: LoadRequest[];
  scripts: ScriptTime[];
  /** the WordPress handles the page printed for its scripts and styles, by site-relative path (no query) */
  handles?: Record<string, string>;
  /** hosts or schemes the page tried to reach and the gate or the browser refused */
  blocked: string[];
  /** the load hit the time limit: its figures are what was seen until then */
  cut?: true;
  /** the HTML document's size and inline parts (Network.getResponseBody), when its body could be read */
  document?: DocumentParts;
  /** a filmstrip: JPEG frames (base64) with their time, when asked for */
  frames?: { at_ms: number; jpeg: string }[];
}

/** One side's figures (a load's, or the medians of a side's loads: local.baseline.homepage.browser). */
export interface BrowserFigures {
  bytes_kb: number;
  requests: number;
  render_blocking: number;
  fcp_ms: number;
  lcp_ms: number;
  tbt_ms: number;
  cls: number;
}

/** One of the component's own requests, named in the record (median over the measured side's loads). */
export interface BrowserAsset {
  /** site-relative path without the query ("/wp-content/plugins/acme/app.js") */
  url: string;
  type: ResourceKind;
  bytes_kb: number;
  render_blocking?: true;
  /** scripts: main-thread time per load (tracing), ms */
  main_thread_ms?: number;
  /** the WordPress handle, when the page names it (`<script id="HANDLE-js">`, `<link id="HANDLE-css">`) */
  handle?: string;
  /** the HTTP status the site answered in most loads, when it was an error (404: the file is not there) */
  status?: number;
}

/** A layout shift the component's side has and the clean side has not, by the node it moved (medians per load). */
export interface BrowserShift {
  /** the node moved ("div#calib-content"), and the ids and classes that name it and its ancestors */
  node: string;
  names: string[];
  /** its shifts' score per load: the median over the loads (0 in a load without it) less the clean side's */
  cls: number;
  /** in how many of the loads with the component it shifted */
  loads: number;
  /** elements a script inserted just before it (the banner that pushed it), when there were */
  inserted?: ShiftNode[];
}

/** The HTML document's growth (with the component − clean, medians), and what of it the component printed inline. */
export interface DocumentGrowth {
  /** on the wire (gzipped as sent) */
  bytes_kb: number;
  /** the HTML itself, decoded */
  html_kb: number;
  /** inline scripts and styles that grew or are new, by the id WordPress printed ("acme-js-extra": wp_localize_script) */
  inline: { id: string; handle?: string; kind: InlineKind; bytes_kb: number }[];
  /** the rest of the HTML's growth: the markup (html_kb less the inline parts) */
  markup_kb: number;
}

/** localize: HANDLE-js-extra; before/after: HANDLE-js-before/-after (wp_add_inline_script); inline-css: HANDLE-inline-css. */
export type InlineKind = 'localize' | 'before' | 'after' | 'inline-css' | 'script' | 'style';

/** contexts.homepage.browser: differences (with the component − clean) of the medians, and their spread. */
export interface BrowserDelta extends BrowserFigures {
  spread: { bytes_kb: number; fcp_ms: number; lcp_ms: number; tbt_ms: number; cls: number };
  assets: BrowserAsset[];
  /** the layout shifts the component causes, by node (none: absent) */
  layout_shifts?: BrowserShift[];
  /** the HTML document's growth, itemised */
  document?: DocumentGrowth;
  /** files under the component's folder a browser could load (scripts, styles, images, fonts), loaded or not */
  front_end_files?: number;
}

/** local.browser: how the browser figures were taken. */
export interface BrowserInfo {
  chromium: string;
  device: 'desktop' | 'mobile';
  /** loads per side (after one warm-up load), a confirmation pass's included */
  rounds: number;
  /** of those, the loads per side of a confirmation pass (`--baseline-ref`: a timed figure the first loads left undecided) */
  confirmation_rounds?: number;
  profile: BrowserProfile;
  /** bubblewrap: Chromium in a sandbox of its own (its own network: it reaches the gate alone); none: why not */
  sandbox: 'bubblewrap' | 'none';
  sandbox_note?: string;
  /** loads cut at the time limit (their figures are what was seen until then) */
  cut?: number;
  /** what the page tried to reach outside the site, refused (hosts, schemes) */
  blocked?: string[];
  /** the site's requests that failed or were answered with an error in most of a side's loads ("path (side: why)") */
  failed_requests?: string[];
  /** one load of each side as the report draws it (waterfall.ts): its requests, marks and filmstrip */
  waterfall?: BrowserWaterfall;
}

/** One request as the waterfall draws it (ms from the navigation's start). */
export interface WaterfallRequest {
  /** site-relative path with query, or the URL of a refused one (at most 300 characters) */
  url: string;
  type: ResourceKind;
  bytes: number;
  start_ms: number;
  response_ms: number | null;
  end_ms: number | null;
  render_blocking?: true;
  /** the component's own file (under its folders) */
  own?: true;
  failed?: string;
}

/** One side's load in the waterfall: its requests, its marks and its filmstrip frames (JPEG, base64). */
export interface WaterfallSide {
  fcp_ms: number | null;
  lcp_ms: number | null;
  load_ms: number | null;
  end_ms: number;
  requests: WaterfallRequest[];
  /** more requests than the waterfall keeps: how many were left out */
  more_requests?: number;
  /** the load hit the time limit (LOAD_LIMIT_MS): what it shows is what was seen until then */
  cut?: true;
  frames: { at_ms: number; jpeg: string }[];
}

/** local.browser.waterfall: one load of the clean side and one with the component, loaded after the measured rounds
 * with frames captured (not counted in the figures: capturing costs the browser work), and the filmstrip's times. */
export interface BrowserWaterfall {
  baseline: WaterfallSide;
  measured: WaterfallSide;
  /** the times (ms) the filmstrip shows both sides at */
  filmstrip_ms: number[];
}

/** What stands in the record when the browser figures could not be taken (no Chromium, Playground …). */
export interface BrowserUnavailable {
  unavailable: string;
}
