// Each side of a run (`measure PATH`: the clean site, the `--baseline-ref` copy) and each `--site` configuration gets
// a database AND a database user of its own, with a random password given to that side's requests only: the
// measured PHP's account has no privilege on any other side's tables, so it can neither write them (an option, a
// trigger, a procedure, an event) nor read them. The measured side keeps wp-config.php's own database (`wordpress`
// on the throwaway server, `wpbench_<hex>` with --db); another side's credentials reach PHP only in a header of that
// side's own requests (X-WPBench-Db, read by wp-config.php), never in a file PHP can read.
//
// WP Bench makes these databases, copies tables into them and reads their state through an administrator's
// connection that PHP never sees: the throwaway server's root (a random password kept in memory, never written), or
// the --db account. Statements run in the machine's PHP CLI (mysqli), outside the sandbox, credentials in its
// environment, never on a command line.
import * as path from 'node:path';
import { crypto } from '../../lazyNode';
import { runProcess } from '../machine/environment';
import { MeasureError } from '../options/runOptions';
import { SIDE_NAME_PATTERN, SIDE_PASSWORD_PATTERN } from '../php/phpFiles';

/** How WP Bench's own statements reach the server: a Unix socket (the throwaway server) or TCP (--db). */
export type AdminConnection = { socket: string; user: string; password: string } | { host: string; port: number; user: string; password: string };

/** A database of one side, and the account that alone may use it. */
export interface SideDb {
  name: string;
  user: string;
  password: string;
}

/** The header carrying a side's database to wp-config.php: "NAME USER PASSWORD". */
export const DB_HEADER = 'X-WPBench-Db';


export function dbHeaderValue(d: SideDb): string {
  return `${d.name} ${d.user} ${d.password}`;
}

/** A new side's password: random, every character class (a server's password policy accepts it). */
export function sidePassword(): string {
  return `Aa1-${crypto().randomBytes(24).toString('base64url')}`;
}

/** The state of a side's tables that must not change while it is measured. */
export interface SideState {
  active_plugins: string;
  stylesheet: string;
  template: string;
  triggers: number;
  routines: number;
  events: number;
  /** the autoloaded options' bytes (every request of the side loads them) */
  autoload_bytes?: number;
}

/** Growth of a side's autoloaded options that is not WordPress's own bookkeeping (a cron entry, a transient). */
export const AUTOLOAD_GROWTH_BYTES = 64 * 1024;

const ADMIN_PHP = [
  'mysqli_report(MYSQLI_REPORT_OFF);',
  '$m = mysqli_init();',
  '$m->options(MYSQLI_OPT_CONNECT_TIMEOUT, 5);',
  '$s = (string) getenv("WPB_S");',
  'if (!@$m->real_connect($s !== "" ? "localhost" : getenv("WPB_H"), getenv("WPB_U"), getenv("WPB_P"), "", (int) getenv("WPB_PORT"), $s !== "" ? $s : null)) { fwrite(STDERR, "connect: " . mysqli_connect_error()); exit(3); }',
  '$m->set_charset("utf8mb4");',
  'function q($m, $sql) { $r = $m->query($sql); if ($r === false) { fwrite(STDERR, $m->errno . " " . $m->error); exit(4); } return $r; }',
  'function id($s) { return "`" . str_replace("`", "``", $s) . "`"; }',
  '$out = array();',
  'foreach (json_decode(getenv("WPB_OPS"), true) as $op) {',
  '  if ($op["op"] === "sql") { q($m, $op["q"]); $out[] = null; }',
  '  elseif ($op["op"] === "copy") {',
  '    $n = 0; $skipped = array();',
  '    $r = q($m, "SHOW FULL TABLES FROM " . id($op["from"]));',
  '    $rows = $r->fetch_all(MYSQLI_NUM);',
  '    foreach ($rows as $row) {',
  '      if ($row[1] !== "BASE TABLE") { $skipped[] = $row[0]; continue; }',
  '      q($m, "CREATE TABLE " . id($op["to"]) . "." . id($row[0]) . " LIKE " . id($op["from"]) . "." . id($row[0]));',
  '      q($m, "INSERT INTO " . id($op["to"]) . "." . id($row[0]) . " SELECT * FROM " . id($op["from"]) . "." . id($row[0]));',
  '      $n++;',
  '    }',
  '    $out[] = array("tables" => $n, "skipped" => $skipped);',
  '  } elseif ($op["op"] === "set") {',
  '    $t = id($op["db"]) . ".`wp_options`";',
  '    foreach ($op["options"] as $k => $v) q($m, "INSERT INTO $t (option_name, option_value, autoload) VALUES (\'" . $m->real_escape_string($k) . "\', \'" . $m->real_escape_string(is_array($v) ? serialize($v) : (string) $v) . "\', \'yes\') ON DUPLICATE KEY UPDATE option_value = VALUES(option_value)");',
  '    $out[] = null;',
  '  } elseif ($op["op"] === "state") {',
  '    $db = $m->real_escape_string($op["db"]);',
  '    $o = array("active_plugins" => "", "stylesheet" => "", "template" => "");',
  '    $r = q($m, "SELECT option_name, option_value FROM " . id($op["db"]) . ".`wp_options` WHERE option_name IN (\'active_plugins\', \'stylesheet\', \'template\')");',
  '    foreach ($r->fetch_all(MYSQLI_NUM) as $row) $o[$row[0]] = $row[1];',
  '    $o["autoload_bytes"] = (int) q($m, "SELECT COALESCE(SUM(LENGTH(option_value)), 0) FROM " . id($op["db"]) . ".`wp_options` WHERE autoload IN (\'yes\', \'on\', \'auto\', \'auto-on\')")->fetch_row()[0];',
  '    foreach (array("triggers" => "SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE EVENT_OBJECT_SCHEMA = \'$db\' OR TRIGGER_SCHEMA = \'$db\'", "routines" => "SELECT COUNT(*) FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = \'$db\'", "events" => "SELECT COUNT(*) FROM information_schema.EVENTS WHERE EVENT_SCHEMA = \'$db\'") as $k => $sql) $o[$k] = (int) q($m, $sql)->fetch_row()[0];',
  '    $out[] = $o;',
  '  }',
  '}',
  'echo json_encode($out);',
].join('\n');

type AdminOp =
  | { op: 'sql'; q: string }
  | { op: 'copy'; from: string; to: string }
  | { op: 'set'; db: string; options: Record<string, string | string[]> }
  | { op: 'state'; db: string };

/** Runs WP Bench's own statements as the administrator; the server's words (never a password) on failure. */
export async function adminOps(php: string, conn: AdminConnection, ops: AdminOp[], env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<unknown[]> {
  const where = 'socket' in conn ? { WPB_S: conn.socket, WPB_H: '', WPB_PORT: '0' } : { WPB_S: '', WPB_H: conn.host === 'localhost' ? '127.0.0.1' : conn.host, WPB_PORT: String(conn.port) };
  const r = await runProcess(php, ['-r', ADMIN_PHP], { PATH: env.PATH, ...where, WPB_U: conn.user, WPB_P: conn.password, WPB_OPS: JSON.stringify(ops) }, 120_000, signal);
  if (r.code !== 0) throw new MeasureError(`the database server refused WP Bench's own statement: ${r.stderr.split(conn.password).join('***').trim().slice(0, 300) || `exit ${r.code}`}`, 7);
  try {
    return JSON.parse(r.stdout) as unknown[];
  } catch {
    throw new MeasureError(`the database server's answer to WP Bench's own statements was not readable: ${r.stdout.slice(0, 200)}`, 7);
  }
}

const sql = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * The statements making a side's database and its user: every privilege on that database and nothing else (in a
 * database-level GRANT "_" is a wildcard: escaped, the grant is on this one database only).
 */
export function sideDbStatements(d: SideDb, userHost: string): string[] {
  if (!new RegExp(`^${SIDE_NAME_PATTERN}$`).test(d.name) || !new RegExp(`^${SIDE_NAME_PATTERN}$`).test(d.user) || !new RegExp(`^${SIDE_PASSWORD_PATTERN}$`).test(d.password)) throw new Error('sideDbStatements: not a side of WP Bench\'s');
  return [
    `CREATE DATABASE \`${d.name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    `CREATE USER '${d.user}'@${sql(userHost)} IDENTIFIED BY ${sql(d.password)} WITH MAX_USER_CONNECTIONS 10`,
    `GRANT ALL PRIVILEGES ON \`${d.name.replace(/_/g, '\\_')}\`.* TO '${d.user}'@${sql(userHost)}`,
  ];
}

/** What the measured side's database is copied into and read from, for one run. */
export interface SideDatabases {
  /** a new side: its database (a copy of `from`'s tables, when given) and its own user */
  add(tag: string, from?: string): Promise<{ db: SideDb; skipped: string[] }>;
  /** sets options of a side's tables (active_plugins as a list, stylesheet, template) */
  set(db: string, options: Record<string, string | string[]>): Promise<void>;
  /** what of a side's tables must stay as it was (see SideState) */
  state(db: string): Promise<SideState>;
}

/** The side databases of a server WP Bench administers: `naming` turns a tag ("clean", "c3") into names. */
export function sideDatabases(o: { php: string; conn: AdminConnection; env: NodeJS.ProcessEnv; signal?: AbortSignal; userHost: string; naming: (tag: string) => string; onAdded?: (d: SideDb) => void | Promise<void>; registerSecret?: (s: string) => void }): SideDatabases {
  const run = (ops: AdminOp[]) => adminOps(o.php, o.conn, ops, o.env, o.signal);
  return {
    async add(tag, from) {
      const name = o.naming(tag);
      const db: SideDb = { name, user: name, password: sidePassword() };
      o.registerSecret?.(db.password);
      await o.onAdded?.(db);
      const out = await run([...sideDbStatements(db, o.userHost).map((q) => ({ op: 'sql' as const, q })), ...(from ? [{ op: 'copy' as const, from, to: name }] : [])]);
      const copied = out[out.length - 1] as { skipped?: string[] } | null;
      return { db, skipped: from && copied?.skipped ? copied.skipped.map(String) : [] };
    },
    async set(db, options) {
      await run([{ op: 'set', db, options: Object.fromEntries(Object.entries(options).map(([k, v]) => [k, Array.isArray(v) ? [...v].sort() : v])) }]);
    },
    async state(db) {
      return (await run([{ op: 'state', db }]))[0] as SideState;
    },
  };
}

/** The first difference between a side's state before and after its rounds, in words; undefined when none. */
export function stateChange(before: SideState, after: SideState): string | undefined {
  for (const k of ['active_plugins', 'stylesheet', 'template'] as const) if (before[k] !== after[k]) return `its ${k} option changed`;
  for (const k of ['triggers', 'routines', 'events'] as const) if (before[k] !== after[k]) return `its database's ${k} went from ${before[k]} to ${after[k]}`;
  if (before.autoload_bytes !== undefined && after.autoload_bytes !== undefined && after.autoload_bytes - before.autoload_bytes > AUTOLOAD_GROWTH_BYTES)
    return `its autoloaded options grew by ${Math.round((after.autoload_bytes - before.autoload_bytes) / 1024)} KB`;
  return undefined;
}

/** The throwaway server's naming: `wpbench_<tag>`; --db's: the run's database name and the tag. */
export function throwawayNaming(tag: string): string {
  return `wpbench_${tag}`;
}

export function socketOf(host: string): string | undefined {
  return /^localhost:\//.test(host) ? path.normalize(host.slice('localhost:'.length)) : undefined;
}
