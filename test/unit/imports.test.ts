// No circle between files (docs/architecture.md: "no two files import each other in a loop"): the import graph of
// src/, drawn from the import, export … from, import() and require() statements of relative modules (type-only
// imports too: a circle of types is still a circle), has no strongly connected component of two or more files.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...tsFiles(p));
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The relative modules a file's source names, resolved to files (a specifier that names no .ts file is left out). */
export function importsOf(file: string, text: string): string[] {
  // Comments out, so an example in a comment is no import; strings stay (the specifiers are strings).
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  const specs = new Set<string>();
  const patterns = [/\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const re of patterns) for (const m of code.matchAll(re)) if (m[1].startsWith('.')) specs.add(m[1]);
  const out: string[] = [];
  for (const s of specs) {
    const base = path.resolve(path.dirname(file), s);
    const hit = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((c) => c.endsWith('.ts') || c.endsWith('.tsx') ? fs.existsSync(c) && fs.statSync(c).isFile() : false);
    if (hit) out.push(hit);
  }
  return out;
}

/** The circles of a graph: its strongly connected components of two or more nodes, and nodes importing themselves (Tarjan). */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('the house: imports', () => {
  it('finds a circle where there is one (and none where there is none)', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
    ]);
    assert.deepEqual(circles(g), [['a', 'b', 'c'], ['e']]);
    assert.deepEqual(circles(new Map([['a', ['b']], ['b', []]])), []);
  });

  it('reads import, export … from, import type, import() and require() of relative modules, not comments', () => {
    const file = path.join(ROOT, 'src', 'core', 'report', 'x.ts');
    const text = [
      "import { a } from './formats';",
      "import type { Judgement } from './judge';",
      "export { b } from './sarif';",
      "export * from './plain';",
      "const m = await import('./json');",
      "const n = require('../model');",
      "import {\n  c,\n  d,\n} from './markdown';",
      "import * as fs from 'node:fs';",
      "// import { z } from './table';",
      '/* export { y } from \'./html\'; */',
    ].join('\n');
    const got = importsOf(file, text).map((f) => path.relative(path.join(ROOT, 'src', 'core'), f).replace(/\\/g, '/')).sort();
    assert.deepEqual(got, ['model.ts', 'report/formats.ts', 'report/json.ts', 'report/judge.ts', 'report/markdown.ts', 'report/plain.ts', 'report/sarif.ts']);
  });

  it('no two files of src/ import each other in a loop', () => {
    const files = tsFiles(path.join(ROOT, 'src'));
    assert.ok(files.length > 100);
    const graph = new Map(files.map((f) => [f, importsOf(f, fs.readFileSync(f, 'utf8'))]));
    const found = circles(graph).map((c) => c.map((f) => path.relative(ROOT, f).replace(/\\/g, '/')).join(' ⇄ '));
    assert.deepEqual(found, []);
  });
});
