#!/usr/bin/env node
// Compares our scanner with WordPress core on one wp-content folder.
//   node test/wp-compare/compare.mjs <wp-content-dir> [--json]
// Runs wp-list.php (real get_plugins(), get_mu_plugins() plus what Bedrock's mu-plugins autoloader adds,
// search_theme_directories()) with `php`
// (env PHP_BIN, default "php"; env WP_CORE_DIR, default /usr/share/wordpress) and scanWorkspace()
// from src/core/scan (TypeScript, loaded through tsx). Exit 0 when they agree, 1 on a mismatch,
// 2 when the comparison could not run.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const here = path.dirname(fileURLToPath(import.meta.url));

export function runWordPress(dir) {
  const php = process.env.PHP_BIN || 'php';
  const r = spawnSync(php, [path.join(here, 'wp-list.php'), dir], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.error) throw new Error(`cannot run ${php}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`wp-list.php failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** Names as PHP printed them: bytes that were not UTF-8 became U+FFFD; compare on ASCII only. */
const norm = (s) => (s ?? '').replace(/[^\x20-\x7e]/g, '');

export async function compare(dir) {
  const { scanWorkspace } = await tsImport('../../src/core/scan/index.ts', import.meta.url);
  const { isListableName } = await tsImport('../../src/core/scan/lookup.ts', import.meta.url);
  const wp = runWordPress(dir);
  const ours = await scanWorkspace(dir);
  const mismatches = [];

  // What WordPress lists, per kind+slug.
  const expected = new Map();
  const want = (kind, slug, name, version, where) => {
    const k = `${kind}:${slug}`;
    const e = expected.get(k) ?? { kind, slug, names: new Set(), versions: new Set(), where: [] };
    e.names.add(name ?? '');
    e.versions.add(version ?? '');
    e.where.push(where);
    expected.set(k, e);
  };
  for (const p of wp.plugins) want('plugin', p.slug, p.name, p.version, `plugins/${p.file}`);
  for (const p of wp.muPlugins) want('plugin', p.slug, p.name, p.version, `mu-plugins/${p.file}`);
  for (const p of wp.muLoaded ?? []) want('plugin', p.slug, p.name, p.version, `mu-plugins/${p.file} (loader)`);
  for (const t of wp.themes) {
    if (t.error === 'theme_no_stylesheet' || t.error === 'theme_not_found') continue; // no style.css: skipped by design
    want('theme', t.slug, t.name, t.version, `themes/${t.stylesheet}/style.css`);
  }

  // What we found on disk under this folder (not composer / wp-env / parent references).
  const onDisk = (c) =>
    c.locations.some((l) =>
      c.kind === 'plugin'
        ? l.source === 'mu-plugin' || (l.source === 'plugin-header' && /^plugins\//.test(l.file))
        : l.source === 'theme-header' && path.posix.basename(path.posix.dirname(l.file)) === c.slug && /^themes\//.test(l.file),
    );
  // Without a plugins folder WordPress cannot say what a mu-plugins loader adds: our mu-plugins sub-folders are not compared.
  const muLoaded = (l) => l.source === 'mu-plugin' && /^mu-plugins\/[^/]+\//.test(l.file);
  const loaderUnknown = (c) => wp.muLoaded === null && c.locations.some(muLoaded) && c.locations.every((l) => l.source !== 'mu-plugin' || muLoaded(l));
  const found = new Map(ours.components.filter((c) => onDisk(c) && !loaderUnknown(c)).map((c) => [`${c.kind}:${c.slug}`, c]));
  const rejected = new Set(ours.problems.filter((p) => p.slug !== undefined).map((p) => p.slug));

  const rows = [];
  for (const [k, e] of expected) {
    const c = found.get(k);
    // Every name WordPress lists is listed as it is (Divi, `theme with spaces`); only a name no one can show
    // (control characters, path separators) is refused — and then it must be reported as a problem.
    if (!isListableName(e.slug)) {
      const ok = rejected.has(e.slug);
      rows.push({ key: k, wp: [...e.names].join(' | '), ours: ok ? '(refused name, reported)' : '(missing problem)', ok });
      if (!ok) mismatches.push(`${k}: WordPress lists ${e.where.join(', ')}; the refused name is not reported as a problem`);
      continue;
    }
    if (!c) {
      rows.push({ key: k, wp: [...e.names].join(' | '), ours: '(missing)', ok: false });
      mismatches.push(`${k}: listed by WordPress (${e.where.join(', ')}) but not found`);
      continue;
    }
    const names = new Set([...e.names].map(norm));
    const versions = new Set([...e.versions].map(norm));
    const nameOk = names.has(norm(c.name));
    const versionOk = versions.has(norm(c.version));
    if (!nameOk) mismatches.push(`${k}: name ${JSON.stringify(c.name)} not in ${JSON.stringify([...e.names])}`);
    if (!versionOk) mismatches.push(`${k}: version ${JSON.stringify(c.version)} not in ${JSON.stringify([...e.versions])}`);
    rows.push({ key: k, wp: `${[...e.names].join(' | ')} @ ${[...e.versions].join(' | ')}`, ours: `${c.name} @ ${c.version}`, ok: nameOk && versionOk });
  }
  for (const [k, c] of found) {
    if (!expected.has(k)) {
      rows.push({ key: k, wp: '(not listed)', ours: `${c.name} @ ${c.version}`, ok: false });
      mismatches.push(`${k}: found by us (${c.locations.map((l) => l.file).join(', ')}) but not listed by WordPress`);
    }
  }
  rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { wpVersion: wp.wpVersion, rows, mismatches, wpTimingsMs: wp.timingsMs, ourStats: ours.stats };
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const args = process.argv.slice(2);
  const dir = args.find((a) => !a.startsWith('--'));
  if (!dir || !fs.existsSync(dir)) {
    console.error('usage: node test/wp-compare/compare.mjs <wp-content-dir> [--json]');
    process.exit(2);
  }
  let result;
  try {
    result = await compare(fs.realpathSync(dir));
  } catch (err) {
    console.error(String(err?.stack ?? err));
    process.exit(2);
  }
  if (args.includes('--json')) {
    console.log(JSON.stringify(result, null, 2));
  } else {
    console.log(`WordPress ${result.wpVersion} vs scanWorkspace() on ${dir}`);
    for (const r of result.rows) console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.key.padEnd(36)} wp: ${r.wp}   ours: ${r.ours}`);
    if (result.mismatches.length) {
      console.log(`\n${result.mismatches.length} mismatch(es):`);
      for (const m of result.mismatches) console.log(`  - ${m}`);
    } else {
      console.log(`\nAgreement: ${result.rows.length} items identical.`);
    }
  }
  process.exit(result.mismatches.length ? 1 : 0);
}
