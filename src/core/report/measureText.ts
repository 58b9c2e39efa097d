// The terminal table of `wp-bench measure PATH`: per context the component's added TTFB, memory, queries (and, with
// `--instructions`, CPU instructions), the run's spread and the clean site's own figures, then what else the run says.
import { databaseLabel } from '../measure/database/database';
import { countNoun, formatInstructions, instructionsDelta } from '../present/format';
import { varyingNotice } from '../present/instructions';
import { CONTEXTS, type LocalRecord, type MeasureContext } from '../measure/record/method';
import { textTable } from './plain';
import { browserLines } from './browserText';

const signed = (n: number, digits = 0) => `${n > 0 ? '+' : n < 0 ? '−' : '±'}${Math.abs(n).toFixed(digits)}`;

/** A difference inside the run's own spread (or under the floor) is no finding: it reads "±0.6 ms (within noise)". */
export const TTFB_NOISE_MS = 1;
export const MEMORY_NOISE_KB = 16;
export function withinNoise(x: number, spread: number, floor: number, digits: number, unit: string): string {
  if (Math.abs(x) <= Math.max(spread, floor)) return `±${Math.abs(x).toFixed(digits)} ${unit} (within noise)`;
  return `${signed(x, digits)} ${unit}`;
}

/** The contexts of a record that have an instruction count (`measure --instructions`); none in older records. */
export function instructionContexts(r: LocalRecord): MeasureContext[] {
  return CONTEXTS.filter((c) => typeof r.contexts[c]?.instructions_delta === 'number');
}

/** "Instructions: counted with callgrind …" — how `--instructions` counted, or nothing. */
function instructionsLine(r: LocalRecord): string[] {
  const i = r.local.instructions;
  if (!i) return [];
  const clock = i.clock === 'set' ? 'the clock set to the same start on every side' : 'the clock running';
  return [
    `Instructions: CPU instructions PHP executes per request, counted with callgrind (opcache ${i.opcache}, ${clock}, ${countNoun(i.rounds, 'counted request')} per context and side): exact where time is noisy; "within noise" inside the larger max−min range of the two sides' counts.`,
  ];
}

export function measureTable(r: LocalRecord): string {
  const l = r.local;
  const counted = instructionContexts(r).length > 0;
  const lines: string[] = [];
  lines.push(`${r.name} (${r.type} ${r.slug}) — measured locally${l.cached ? ' (from the cache)' : ''}: ${l.runtime} runtime, PHP ${l.php_version}${l.opcache === undefined ? '' : l.opcache ? ' (opcache on)' : ' (opcache off)'}, WordPress ${l.wordpress_version}${l.database ? `, ${databaseLabel(l.database)}` : ''}, ${l.rounds} rounds`);
  const rows = [['CONTEXT', 'TTFB', 'MEMORY', 'QUERIES', ...(counted ? ['INSTRUCTIONS'] : []), 'SPREAD (IQR)', 'CLEAN SITE']];
  for (const c of CONTEXTS) {
    const m = r.contexts[c];
    if (!m) {
      const why = l.null_reasons[c];
      rows.push([c, 'not measured', '', '', ...(counted ? [''] : []), `${why?.reason ?? ''}${why?.php_error ? `: ${why.php_error.slice(0, 160)}` : ''}`]);
      continue;
    }
    const s = l.spread[c]!;
    const b = l.baseline?.[c];
    const instr = typeof m.instructions_delta === 'number' ? m.instructions_delta : undefined;
    rows.push([
      c,
      withinNoise(m.ttfb_delta_ms, s.ttfb_ms, TTFB_NOISE_MS, 1, 'ms'),
      withinNoise(m.memory_delta_kb, s.memory_kb, MEMORY_NOISE_KB, 0, 'KB'),
      signed(m.queries_delta),
      ...(counted ? [instr === undefined ? '–' : instructionsDelta(instr, b?.instructions, s.instructions)] : []),
      `${s.ttfb_ms} ms · ${s.memory_kb} KB · ${s.queries} q${instr !== undefined && s.instructions !== undefined ? ` · range ${formatInstructions(s.instructions)}` : ''}`,
      b ? `${b.ttfb_ms} ms · ${b.memory_kb.toLocaleString('en-US')} KB · ${b.queries} q${typeof b.instructions === 'number' ? ` · ${formatInstructions(b.instructions)}` : ''}` : '',
    ]);
  }
  lines.push(textTable(rows));
  const h = l.activation_hook;
  if (h) {
    const mem = `${Math.round(h.memory_kb).toLocaleString('en-US')} KB ${h.memory === 'held' ? 'held after it' : 'at its peak'}`;
    // What was timed is WordPress's activate_plugin() / switch_theme() with everything it runs (the component's
    // activation hook, if it has one, and WordPress's own bookkeeping): not "the activation hook" alone.
    const what = r.type === 'theme' ? 'Theme switch (switch_theme(), once' : 'Activation (activate_plugin(), once';
    lines.push(`${what}; not in the figures above): ${h.time_ms.toFixed(1)} ms, ${mem}, ${countNoun(h.queries, 'query', 'queries')}.`);
  }
  const dbErr = Object.entries(l.database_errors ?? {});
  for (const [c, e] of dbErr) {
    lines.push(`Warning: ${c}: ${countNoun(e!.per_request, 'database error', 'database errors')} per request that the clean site has not${e!.example ? ` (${e!.example.slice(0, 160)})` : ''}: not representative.`);
  }
  const needs = l.needs;
  lines.push(
    needs?.did_nothing
      ? `${needs.note.charAt(0).toUpperCase()}${needs.note.slice(1)}: no grade.`
      : r.speed_score
        ? `Grade ${r.speed_score.grade} — estimated by WP Bench (doubling scale from the API's A limits), not the API's grade.`
        : dbErr.length
          ? 'No grade: database errors made part of the figures.'
          : 'No grade: the activation context was not measured.',
  );
  // An add-on that costs something without its parent: the figures stand, the need is said.
  if (needs && !needs.did_nothing) lines.push(`Needs: ${needs.note}.`);
  if (l.runtime_note) lines.push(`Note: ${l.runtime_note}.`);
  if (l.must_use) lines.push('Must-use plugin: measured from mu-plugins/, where WordPress loads it on every request; never activated (its "activation" row is the cost of loading it).');
  if (l.parent_theme) lines.push(`Child theme: measured with its parent ${l.parent_theme.name}${l.parent_theme.version ? ` ${l.parent_theme.version}` : ''} (${l.parent_theme.slug}); the figures include the parent's cost.`);
  if (l.sandbox === 'bubblewrap') lines.push(`Sandbox: bubblewrap (own PID namespace${l.network === 'isolated' ? ' and network' : ''}, read-only system and code, only uploads, caches and temporary folders writable; the database in a sandbox of its own).`);
  else if (l.sandbox === 'playground') lines.push('Sandbox: WordPress Playground (PHP compiled to WebAssembly sees only the throwaway site mounted into it).');
  else if (l.sandbox === 'none') lines.push(`Warning: no sandbox${l.sandbox_note ? ` — ${l.sandbox_note}` : ''}.`);
  for (const w of l.warnings ?? []) lines.push(`Warning: ${w}.`);
  lines.push(...instructionsLine(r));
  lines.push(...browserLines(r));
  const varying = varyingNotice(r);
  if (varying) lines.push(`Warning: ${varying}.`);
  lines.push('Deltas of medians against the same clean site without the component (its own medians in CLEAN SITE); "within noise": inside the run\'s spread; KB are KiB (1024 bytes).');
  return lines.join('\n');
}
