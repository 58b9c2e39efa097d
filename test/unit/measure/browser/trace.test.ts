// A script's main-thread time from a recorded trace (modelled on a devtools.timeline trace of Chromium 156): the
// renderer main thread only, by URL, a function called while a script evaluates not counted twice; the page
// observers' reports parsed strictly.
import assert from 'node:assert/strict';
import { scriptTimes, type TraceEvent } from '../../../../src/core/measure/browser/trace';
import { parseReport } from '../../../../src/core/measure/browser/pageScript';

const meta = (pid: number, tid: number, name: string): TraceEvent => ({ name: 'thread_name', ph: 'M', ts: 0, pid, tid, args: { name } });
const x = (name: string, ts: number, durMs: number, url: string | undefined, tid = 1): TraceEvent => ({ name, ph: 'X', ts, dur: durMs * 1000, pid: 7, tid, args: { data: url === undefined ? {} : { url } } });

describe('browser trace: main-thread time per script', () => {
  it('sums each script’s top-level work on the renderer main thread', () => {
    const events = [
      meta(7, 1, 'CrRendererMain'),
      meta(7, 2, 'Compositor'),
      x('EvaluateScript', 1_000, 250, 'http://127.0.0.1:8080/wp-content/plugins/acme/head.js'),
      // Called during the evaluation above: inside it, not counted again.
      x('FunctionCall', 50_000, 100, 'http://127.0.0.1:8080/wp-content/plugins/acme/head.js'),
      x('TimerFire', 400_000, 80, undefined),
      x('FunctionCall', 400_010, 79, 'http://127.0.0.1:8080/wp-content/plugins/acme/late.js'),
      x('v8.compile', 600_000, 2, 'http://127.0.0.1:8080/wp-includes/js/jquery/jquery.min.js'),
      // Another thread (a worker): not the main thread's time.
      x('EvaluateScript', 1_000, 500, 'http://127.0.0.1:8080/wp-content/plugins/acme/worker.js', 2),
    ];
    assert.deepEqual(scriptTimes(events), [
      { url: 'http://127.0.0.1:8080/wp-content/plugins/acme/head.js', main_thread_ms: 250 },
      { url: 'http://127.0.0.1:8080/wp-content/plugins/acme/late.js', main_thread_ms: 79 },
      { url: 'http://127.0.0.1:8080/wp-includes/js/jquery/jquery.min.js', main_thread_ms: 2 },
    ]);
  });

  it('takes only well-formed reports from the page’s observers', () => {
    assert.deepEqual(parseReport('{"k":"fcp","t":312.5}'), { k: 'fcp', t: 312.5 });
    assert.deepEqual(parseReport('{"k":"shift","t":900,"v":0.12}'), { k: 'shift', t: 900, v: 0.12 });
    for (const bad of ['', 'null', '{"k":"fcp"}', '{"k":"fcp","t":"1"}', '{"k":"shift","t":1}', '{"k":"task","t":1}', '{"k":"load","t":1}', '{"k":"evil","t":1}', '{"k":"fcp","t":1e999}']) assert.equal(parseReport(bad), undefined, bad);
  });
});
