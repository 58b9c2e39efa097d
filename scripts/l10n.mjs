// Localisation of the extension's strings (VS Code's l10n: https://github.com/microsoft/vscode-l10n).
//
//   node scripts/l10n.mjs           writes l10n/bundle.l10n.json from every l10n.t('…') call in the UI sources
//   node scripts/l10n.mjs --check   exits 1 when the bundle is out of date, a call's message is not a literal,
//                                   or a UI source holds user-facing text outside l10n.t (test/unit/l10n.test.ts)
//
// UI sources: the glue (src/vscode) and the core modules whose text VS Code shows (hovers, diagnostics, tree,
// status bar, prompts, the lookup panel, site report and compare panel). The core calls its own `l10n.t`
// (src/core/l10n.ts: English unless the extension plugs in vscode.l10n.t), the glue calls `vscode.l10n.t`.
// A literal that is not for people (an id, a log line, a CSS class list) is skipped when the line or the one
// before says `l10n-ignore`; log calls (logger.*, log.*) and `new Error` inside the glue are not UI.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE = path.join(ROOT, 'l10n', 'bundle.l10n.json');

/**
 * Files whose strings people read in VS Code: the glue, and the core but for the CLI's reports and the CLI's
 * measure engine (English; src/core/measure also holds PHP sources, which are code).
 */
export function uiSources() {
  const all = (dir) => fs.readdirSync(path.join(ROOT, dir), { recursive: true }).filter((f) => f.endsWith('.ts')).map((f) => path.join(dir, f).split(path.sep).join('/'));
  // The reports are English, but the "at a glance" views built from the judgement (report/glance*.ts) are the editor's.
  const editorViews = (f) => /^src\/core\/report\/glance(View)?\.ts$/.test(f);
  const core = all('src/core').filter((f) => (editorViews(f) || !f.startsWith('src/core/report/')) && !f.startsWith('src/core/measure/') && f !== 'src/core/l10n.ts');
  return [...all('src/vscode'), 'src/extension.ts', ...core].sort();
}

// WordPress's header field names are names in files, not text for people.
const HEADER_FIELDS = new Set(['Plugin Name', 'Plugin URI', 'Theme Name', 'Theme URI', 'Update URI', 'Text Domain', 'Requires PHP', 'Requires at least']);
const WORDS = /[A-Za-z]{2,}[^A-Za-z\n]*\s[^A-Za-z\n]*[A-Za-z]{2,}/;
const NOT_UI_CALL = /^(?:this\.)?(?:host\.)?(?:logger|log|output)\.(?:info|warn|error|debug|trace|appendLine)$|^console\./;

function isL10nCall(node) {
  if (!ts.isCallExpression(node)) return false;
  const text = node.expression.getText();
  return text === 'l10n.t' || text === 'vscode.l10n.t';
}

/** Messages, non-literal messages and bare user-facing text of one file. */
export function scanFile(file) {
  const abs = path.resolve(ROOT, file);
  const source = fs.readFileSync(abs, 'utf8');
  const sf = ts.createSourceFile(abs, source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const lines = source.split('\n');
  const messages = [];
  const dynamic = [];
  const bare = [];
  const where = (node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
  const ignored = (line) => /l10n-ignore/.test(lines[line] ?? '') || /l10n-ignore/.test(lines[line - 1] ?? '');
  const visit = (node, inUi) => {
    if (isL10nCall(node)) {
      const [first, ...rest] = node.arguments;
      if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) messages.push(first.text);
      else if (!ignored(where(node))) dynamic.push({ file, line: where(node) + 1, text: node.getText().slice(0, 80) });
      for (const a of rest) visit(a, true);
      return;
    }
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    if (ts.isCallExpression(node) && NOT_UI_CALL.test(node.expression.getText())) return;
    if (ts.isNewExpression(node) && /^(?:Error|RegExp|URL)$/.test(node.expression.getText()) && file.startsWith('src/vscode')) return;
    if (ts.isPropertyAssignment(node) && (ts.isStringLiteral(node.name) || ts.isIdentifier(node.name))) {
      // Keys are names, values may be text.
      visit(node.initializer, inUi);
      return;
    }
    if (ts.isLiteralTypeNode(node) || ts.isTypeAliasDeclaration(node) || ts.isInterfaceDeclaration(node)) return;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      const text = ts.isTemplateExpression(node) ? [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join('') : node.text;
      const line = where(node);
      const words = text.replace(/<[^>]*>/g, ' ').replace(/\$\([\w-]+\)/g, ' ').replace(/\bWP Bench\b/g, 'WPBench');
      if (inUi && WORDS.test(words) && !HEADER_FIELDS.has(text) && !/^[\w.-]+(?:\/[\w.-]+)+$/.test(text) && !ignored(line)) bare.push({ file, line: line + 1, text: text.slice(0, 80) });
      if (ts.isTemplateExpression(node)) for (const s of node.templateSpans) visit(s.expression, inUi);
      return;
    }
    ts.forEachChild(node, (c) => visit(c, inUi));
  };
  visit(sf, true);
  return { messages, dynamic, bare };
}

export function extract(files = uiSources()) {
  const messages = new Set();
  const dynamic = [];
  const bare = [];
  for (const f of files) {
    const r = scanFile(f);
    r.messages.forEach((m) => messages.add(m));
    dynamic.push(...r.dynamic);
    bare.push(...r.bare);
  }
  const bundle = {};
  for (const m of [...messages].sort()) bundle[m] = m;
  return { bundle, dynamic, bare };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { bundle, dynamic, bare } = extract();
  const text = JSON.stringify(bundle, null, 2) + '\n';
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(BUNDLE) ? fs.readFileSync(BUNDLE, 'utf8') : '';
    let bad = 0;
    if (current !== text) {
      bad++;
      console.error(`${path.relative(ROOT, BUNDLE)} is out of date: run node scripts/l10n.mjs`);
    }
    for (const d of dynamic) (bad++, console.error(`${d.file}:${d.line}: l10n.t needs a literal message: ${d.text}`));
    for (const b of bare) (bad++, console.error(`${b.file}:${b.line}: text outside l10n.t: ${JSON.stringify(b.text)}`));
    process.exitCode = bad ? 1 : 0;
  } else {
    fs.mkdirSync(path.dirname(BUNDLE), { recursive: true });
    fs.writeFileSync(BUNDLE, text);
    console.log(`${path.relative(ROOT, BUNDLE)}: ${Object.keys(bundle).length} messages; ${bare.length} texts outside l10n.t, ${dynamic.length} non-literal messages`);
  }
}
