// What PHP loaders say, read without running PHP: one pass over the text, no regular expressions (linear time
// on any input), comments and inline HTML left out. Used on mu-plugins (which sub-folders a loader requires) and
// on VIP's client-mu-plugins (`wpcom_vip_load_plugin()` calls). Pure: no I/O.

/** A token of PHP code: a string literal (its value), a word (identifier, keyword, namespaced name) or one character. */
export interface PhpToken {
  kind: 'string' | 'word' | 'punct';
  value: string;
  /** Offset of the token's first character in the text. */
  offset: number;
  /** A double-quoted string with a `$` or `{$` in it: its value depends on variables. */
  dynamic?: boolean;
}

const isWordChar = (c: number) =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 92 || c >= 128;

/**
 * The tokens of the code parts of a PHP file: outside `<?php … ?>` is inline HTML, and `//`, `#` and `/* … *\/`
 * comments are skipped (a commented-out loader call loads nothing). Each character is looked at once or twice.
 */
export function phpTokens(text: string): PhpToken[] {
  const out: PhpToken[] = [];
  const n = text.length;
  let i = 0;
  let code = false;
  while (i < n) {
    if (!code) {
      const open = text.indexOf('<?', i);
      if (open < 0) break;
      i = open + 2;
      if (text.slice(i, i + 3).toLowerCase() === 'php') i += 3;
      else if (text[i] === '=') i++;
      code = true;
      continue;
    }
    const c = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (c === 63 /* ? */ && next === 62 /* > */) {
      code = false;
      i += 2;
    } else if ((c === 47 && next === 47) || (c === 35 && next !== 91) /* // or #, not #[ */) {
      // A line comment ends at the line's end or at `?>`.
      while (i < n && text.charCodeAt(i) !== 10 && text.charCodeAt(i) !== 13 && !(text.charCodeAt(i) === 63 && text.charCodeAt(i + 1) === 62)) i++;
    } else if (c === 47 && next === 42 /* /* */) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === 39 || c === 34 /* ' " */) {
      const start = i;
      let value = '';
      let dynamic = false;
      i++;
      while (i < n && text.charCodeAt(i) !== c) {
        const ch = text.charCodeAt(i);
        if (ch === 92 /* \ */ && i + 1 < n) {
          const esc = text[i + 1];
          // Single quotes unescape only \' and \\; double quotes keep other escapes as written (paths have none).
          value += esc === text[start] || esc === '\\' || (c === 34 && esc === '$') ? esc : '\\' + esc;
          i += 2;
          continue;
        }
        if (c === 34 && ch === 36 /* $ */) dynamic = true;
        value += text[i];
        i++;
      }
      i++; // the closing quote
      out.push(dynamic ? { kind: 'string', value, offset: start, dynamic } : { kind: 'string', value, offset: start });
    } else if (isWordChar(c)) {
      const start = i;
      while (i < n && isWordChar(text.charCodeAt(i))) i++;
      out.push({ kind: 'word', value: text.slice(start, i), offset: start });
    } else {
      if (c > 32) out.push({ kind: 'punct', value: text[i], offset: i });
      i++;
    }
  }
  return out;
}

/** A `wpcom_vip_load_plugin( 'liveblog' )` call: its first argument, or null when it is not a plain string. */
export interface VipLoadCall {
  /** The first argument as written (`liveblog`, `jetpack-force-2fa/jetpack-force-2fa.php`), or null. */
  plugin: string | null;
  /** Offset of the first argument (or of the function name when it is not a string). */
  offset: number;
  /** Length of the first argument's text, quotes included (0 when it is not a string). */
  length: number;
}

const VIP_LOAD = 'wpcom_vip_load_plugin';

/**
 * The `wpcom_vip_load_plugin()` calls of a file (VIP's way to activate a plugin in code: client-mu-plugins/plugin-loader.php).
 * The optional second and third arguments (a folder under the plugins folder, a release candidate) do not change
 * which plugin it is. The function's own definition (`function wpcom_vip_load_plugin(`, test stubs) and method calls
 * of the same name are not calls.
 */
export function vipLoadPluginCalls(tokens: PhpToken[]): VipLoadCall[] {
  const calls: VipLoadCall[] = [];
  for (let t = 0; t < tokens.length; t++) {
    const tok = tokens[t];
    if (tok.kind !== 'word') continue;
    const name = tok.value.startsWith('\\') ? tok.value.slice(1) : tok.value;
    if (name.toLowerCase() !== VIP_LOAD || tokens[t + 1]?.value !== '(') continue;
    const before = tokens[t - 1];
    if (before && ((before.kind === 'word' && before.value.toLowerCase() === 'function') || before.value === '>' || before.value === ':')) continue;
    const arg = tokens[t + 2];
    const after = tokens[t + 3];
    if (arg?.kind === 'string' && !arg.dynamic && (after?.value === ',' || after?.value === ')')) {
      calls.push({ plugin: arg.value, offset: arg.offset, length: arg.value.length + 2 });
    } else {
      calls.push({ plugin: null, offset: tok.offset, length: 0 });
    }
  }
  return calls;
}

/** The plugin folder a `wpcom_vip_load_plugin()` argument names: `liveblog`, or the folder of `folder/file.php`. */
export function vipPluginFolder(plugin: string): string {
  const slash = plugin.indexOf('/');
  return (slash < 0 ? plugin : plugin.slice(0, slash)).trim();
}

const REQUIRES: ReadonlySet<string> = new Set(['require', 'require_once', 'include', 'include_once']);

/**
 * Which sub-folders of its mu-plugins folder a top-level mu-plugin loads, from its code:
 * - Bedrock's autoloader (`Roots\Bedrock\Autoloader`): every sub-folder with a headed plugin file (`all`);
 * - a `require` / `include` with a string naming the sub-folder (`__DIR__ . '/blocks/blocks.php'`, VIP's documented
 *   form; a folder globbed before a require, as WordCamp's `'/jetpack-tweaks'`) loads that folder; a `*` part
 *   (`'/*\/*.php'`) loads them all.
 * Comments do not count (VIP's skeleton shows the require form in a comment).
 */
export function loadedSubFolders(tokens: PhpToken[]): { all: boolean; folders: Set<string> } {
  const folders = new Set<string>();
  let requires = false;
  let bedrockNamespace = false;
  let autoloader = false;
  const strings: string[] = [];
  for (const tok of tokens) {
    if (tok.kind === 'string') strings.push(tok.value);
    if (tok.kind !== 'word') continue;
    const w = tok.value;
    if (REQUIRES.has(w.toLowerCase())) requires = true;
    if (w === 'Autoloader' || w.endsWith('\\Autoloader')) autoloader = true;
    if (w === 'Roots\\Bedrock' || w.startsWith('Roots\\Bedrock\\') || w.startsWith('\\Roots\\Bedrock')) bedrockNamespace = true;
  }
  if (autoloader && bedrockNamespace) return { all: true, folders };
  if (!requires) return { all: false, folders };
  let all = false;
  for (const s of strings) {
    for (const part of s.split('/')) {
      if (part === '*') all = true;
      else if (part !== '' && part !== '.' && part !== '..') folders.add(part);
    }
  }
  return { all, folders };
}
