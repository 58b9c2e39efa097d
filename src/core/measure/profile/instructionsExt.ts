// `--profile --instructions`: the small PHP extension that lets callgrind see the component's PHP functions. Callgrind
// counts instructions per C function, and PHP runs every PHP function inside the same C code (execute_ex), so alone it
// can never name one. The extension (C source below, compiled here with the machine's C compiler against this PHP's
// headers, `php-config --includes`) replaces zend_execute_ex: a call of a PHP function defined in the component's files
// runs through a C function of its own (wpb_f_<id>, one per PHP function, in the order first called; the id's name,
// file and line go to a map file), every other call straight through. Callgrind then counts each of the component's
// functions as that C function's inclusive cost, and with the trampolines' callers kept apart (--separate-callers) it
// sees which of the component's functions runs inside which (./instructionsProfile.ts reads that). What the hook adds
// (it makes PHP enter its executor once more per call) the hook counts, per kind of call and per function, and
// ./instructionsCorrection.ts takes out; those counts are written at each request's end by wpb_write_calls, which
// callgrind does not count (--toggle-collect: a toggle only works on a function that is not re-entered, as this one).
// Pure text here; building is ../run/instructionsProfiling.ts's.

/** Trampolines: the component's first 2,048 distinct PHP functions each get their own; later ones share one. */
export const TRAMPOLINES = 2048;
/** The C function every PHP function past the first TRAMPOLINES runs through. */
export const OVERFLOW_FN = 'wpb_f_overflow';
/** The hook every PHP function call goes through with the extension loaded. */
export const HOOK_FN = 'wpb_execute_ex';

/** The extension's C source. Roots (the component's files and folders) and the map file come from the environment. */
export function extensionSource(n = TRAMPOLINES): string {
  const fns: string[] = [];
  for (let i = 0; i < n; i++) fns.push(`static NOINL void wpb_f_${i}(zend_execute_data *ed) { wpb_prev(ed); BARRIER; }`);
  const table = Array.from({ length: n }, (_, i) => `wpb_f_${i}`).join(',');
  // l10n-ignore: C source, not UI text
  return `/* WP Bench: one C function per PHP function of the measured component, so callgrind can count each. */
#include "php.h"
#include "zend_extensions.h"
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#define NOINL __attribute__((noinline, noclone, used))
#define BARRIER __asm__ volatile("" ::: "memory")
#define WPB_N ${n}
static void (*wpb_prev)(zend_execute_data *ed);
${fns.join('\n')}
static void (*const wpb_tramp[WPB_N])(zend_execute_data *) = { ${table} };
static NOINL void ${OVERFLOW_FN}(zend_execute_data *ed) { wpb_prev(ed); BARRIER; }
static char *wpb_roots[64]; static size_t wpb_root_len[64]; static int wpb_nroots;
static int wpb_handle = -1;
/* Ids by "file:line:name", each given once (a file compiled again gets the same ids). */
static HashTable wpb_ids; static zend_long wpb_next;
/* Calls through the hook, by kind (see the hook). */
static uint64_t wpb_n[4];
/* Per id and kind: calls made inside its outermost call ([0..3]), and with it the innermost of the component's ([4..7]). */
static uint64_t (*wpb_cnt)[8]; static zend_long wpb_cap;
static zend_long *wpb_active; static zend_long wpb_stack[4096]; static int wpb_depth;
static long wpb_request;
static FILE *wpb_map, *wpb_calls;
static int wpb_is_comp(zend_string *file) {
  if (!file) return 0;
  for (int i = 0; i < wpb_nroots; i++) {
    size_t l = wpb_root_len[i];
    if (ZSTR_LEN(file) >= l && memcmp(ZSTR_VAL(file), wpb_roots[i], l) == 0 && (ZSTR_LEN(file) == l || ZSTR_VAL(file)[l] == '/')) return 1;
  }
  return 0;
}
static zend_long wpb_id(zend_op_array *op) {
  if (!wpb_is_comp(op->filename)) return -1;
  zend_string *k = zend_strpprintf(0, "%s:%u:%s:%s", ZSTR_VAL(op->filename), op->line_start, op->scope ? ZSTR_VAL(op->scope->name) : "", ZSTR_VAL(op->function_name));
  zval *z = zend_hash_find(&wpb_ids, k);
  zend_long id;
  if (z) id = Z_LVAL_P(z);
  else {
    id = ++wpb_next;
    zval v; ZVAL_LONG(&v, id);
    zend_hash_add_new(&wpb_ids, zend_string_dup(k, 1), &v);
    if (id >= wpb_cap) {
      zend_long old = wpb_cap;
      wpb_cap = wpb_cap ? wpb_cap * 2 : 1024;
      wpb_cnt = realloc(wpb_cnt, sizeof(*wpb_cnt) * wpb_cap);
      wpb_active = realloc(wpb_active, sizeof(*wpb_active) * wpb_cap);
      memset(wpb_cnt + old, 0, sizeof(*wpb_cnt) * (wpb_cap - old));
      memset(wpb_active + old, 0, sizeof(*wpb_active) * (wpb_cap - old));
    }
    if (wpb_map) {
      fprintf(wpb_map, "%ld\\t%u\\t%s%s%s\\t%s\\n", (long) id - 1, op->line_start, op->scope ? ZSTR_VAL(op->scope->name) : "",
        op->scope ? "::" : "", ZSTR_VAL(op->function_name), ZSTR_VAL(op->filename));
      fflush(wpb_map);
    }
  }
  zend_string_release(k);
  return id;
}
static NOINL void ${HOOK_FN}(zend_execute_data *ed) {
  zend_execute_data *prev = ed->prev_execute_data;
  /* 0: called from PHP code (the VM entered again, which it is not without the hook), 1: from C (a callback). */
  int kind = prev && prev->func && ZEND_USER_CODE(prev->func->type) ? 0 : 2;
  zend_function *f = ed->func;
  zend_long id = -1;
  if (f && f->type == ZEND_USER_FUNCTION && f->op_array.function_name && wpb_handle >= 0) {
    id = (zend_long)(intptr_t) f->op_array.reserved[wpb_handle];
    if (!id) f->op_array.reserved[wpb_handle] = (void *)(intptr_t)(id = wpb_id(&f->op_array));
  }
  /* 4 kinds of call (from PHP or C, to the component's function or another), each adding its own instructions. */
  int k = kind + (id > 0 ? 1 : 0);
  wpb_n[k]++;
  if (wpb_depth > 0) wpb_cnt[wpb_stack[(wpb_depth < 4096 ? wpb_depth : 4096) - 1]][4 + k]++;
  if (id < 0) { wpb_prev(ed); return; }
  uint64_t b[4] = { wpb_n[0], wpb_n[1], wpb_n[2], wpb_n[3] };
  if (wpb_depth < 4096) wpb_stack[wpb_depth] = id;
  wpb_depth++;
  wpb_active[id]++;
  if (id <= WPB_N) wpb_tramp[id - 1](ed); else ${OVERFLOW_FN}(ed);
  wpb_depth--;
  if (--wpb_active[id] == 0) for (int i = 0; i < 4; i++) wpb_cnt[id][i] += wpb_n[i] - b[i];
}
PHP_RINIT_FUNCTION(wpbcg) {
  wpb_depth = 0;
  if (wpb_active) memset(wpb_active, 0, sizeof(*wpb_active) * wpb_cap);
  return SUCCESS;
}
/* Not counted (callgrind --toggle-collect on it): each request's call counts, after its last PHP code ran. */
static NOINL void wpb_write_calls(void) {
  wpb_request++;
  if (!wpb_calls) return;
  fprintf(wpb_calls, "R\\t%ld\\t%llu\\t%llu\\t%llu\\t%llu\\n", wpb_request, (unsigned long long) wpb_n[0], (unsigned long long) wpb_n[1], (unsigned long long) wpb_n[2], (unsigned long long) wpb_n[3]);
  for (zend_long i = 1; i <= wpb_next && i < wpb_cap; i++) {
    uint64_t *c = wpb_cnt[i];
    int any = 0;
    for (int j = 0; j < 8; j++) any |= c[j] != 0;
    if (!any) continue;
    fprintf(wpb_calls, "%ld", (long) i - 1);
    for (int j = 0; j < 8; j++) fprintf(wpb_calls, "\\t%llu", (unsigned long long) c[j]);
    fputc('\\n', wpb_calls);
  }
  fflush(wpb_calls);
  memset(wpb_cnt, 0, sizeof(*wpb_cnt) * wpb_cap);
  memset(wpb_n, 0, sizeof(wpb_n));
}
PHP_RSHUTDOWN_FUNCTION(wpbcg) {
  wpb_write_calls();
  return SUCCESS;
}
PHP_MINIT_FUNCTION(wpbcg) {
  const char *r = getenv("WPBENCH_CG_ROOTS");
  if (!r || !*r) return SUCCESS;
  char *copy = strdup(r);
  for (char *t = strtok(copy, "\\n"); t && wpb_nroots < 64; t = strtok(NULL, "\\n")) {
    size_t l = strlen(t);
    while (l > 1 && t[l - 1] == '/') t[--l] = 0;
    wpb_roots[wpb_nroots] = t; wpb_root_len[wpb_nroots++] = l;
  }
  const char *m = getenv("WPBENCH_CG_MAP");
  if (m && *m) wpb_map = fopen(m, "a");
  const char *c = getenv("WPBENCH_CG_CALLS");
  if (c && *c) wpb_calls = fopen(c, "a");
  zend_hash_init(&wpb_ids, 1024, NULL, NULL, 1);
  wpb_cap = 1024; wpb_cnt = calloc(wpb_cap, sizeof(*wpb_cnt)); wpb_active = calloc(wpb_cap, sizeof(*wpb_active));
  wpb_handle = zend_get_resource_handle("wpbcg");
  wpb_prev = zend_execute_ex;
  zend_execute_ex = ${HOOK_FN};
  return SUCCESS;
}
zend_module_entry wpbcg_module_entry = { STANDARD_MODULE_HEADER, "wpbcg", NULL, PHP_MINIT(wpbcg), NULL, PHP_RINIT(wpbcg), PHP_RSHUTDOWN(wpbcg), NULL, "1", STANDARD_MODULE_PROPERTIES };
ZEND_GET_MODULE(wpbcg)
`;
}

/** The compiler's command line: the trampolines must stay calls (no sibling-call jumps), each its own symbol. */
export function compileArgs(includes: string[], source: string, out: string): string[] {
  return ['-O2', '-fPIC', '-shared', '-fno-optimize-sibling-calls', ...includes, source, '-o', out];
}
