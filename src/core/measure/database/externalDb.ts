// `--db mysql://USER:PASS@HOST:PORT/` (or WPBENCH_DB_URL): a server the user runs. WP Bench creates its own database
// AND user there, gives only that user to WordPress, reaches the server through a relay socket in the run's folder
// (loginGuard lets only the run's own users through), and drops both at the end (a killed run's are dropped by the next
// run against that server, from the note DB_LEFTOVER_FILE). The user's password never reaches WordPress, output, logs
// or records. See database.ts for the database/ folder.
import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { runProcess } from '../machine/environment';
import { MeasureError } from '../options/runOptions';
import { dbSocketDir, type DbUrl, type RunningDb } from './database';

/** The host the relay and WP Bench's own statements reach the user's server by: both the same way (TCP). */
function tcpHost(url: DbUrl): string {
  return url.host === 'localhost' ? '127.0.0.1' : url.host;
}

/**
 * Runs SQL statements on the user's server through PHP's mysqli (credentials in the environment, never on a command
 * line), each on its own line of the result; the first failing one stops and throws with the server's words. Bounded
 * by `timeoutMs` and by the run's signal (the child is killed: a server that accepts and never answers cannot hold
 * the run past --timeout-s).
 */
async function phpSql(php: string, url: DbUrl, sql: string | string[], env: NodeJS.ProcessEnv, o: { signal?: AbortSignal; timeoutMs?: number; refusedCode?: 2 | 7 } = {}): Promise<string> {
  const statements = Array.isArray(sql) ? sql : [sql];
  const code = [
    'mysqli_report(MYSQLI_REPORT_OFF);',
    '$m = mysqli_init();',
    '$m->options(MYSQLI_OPT_CONNECT_TIMEOUT, 5);',
    'if (defined("MYSQLI_OPT_READ_TIMEOUT")) $m->options(MYSQLI_OPT_READ_TIMEOUT, 15);',
    'if (!@$m->real_connect(getenv("WPB_H"), getenv("WPB_U"), getenv("WPB_P"), "", (int) getenv("WPB_PORT"))) { fwrite(STDERR, "connect: " . mysqli_connect_error()); exit(3); }',
    'foreach (json_decode(getenv("WPB_SQL"), true) as $q) {',
    '  $r = $m->query($q);',
    '  if ($r === false) { fwrite(STDERR, $m->errno . " " . $m->error); exit(4); }',
    '  if ($r instanceof mysqli_result) { $row = $r->fetch_row(); echo $row ? $row[0] : "", "\n"; } else echo "\n";',
    '}',
  ].join(' ');
  const r = await runProcess(php, ['-r', code], { PATH: env.PATH, WPB_H: tcpHost(url), WPB_U: url.user, WPB_P: url.password, WPB_PORT: String(url.port), WPB_SQL: JSON.stringify(statements) }, o.timeoutMs ?? 20_000, o.signal);
  if (r.code !== 0) {
    const said = redactSecret(r.stderr, url.password).trim().slice(0, 300) || `exit ${r.code}`;
    if (r.code === 4 && o.refusedCode) throw new MeasureError(said, o.refusedCode);
    throw new MeasureError(`--db: the server said: ${said}`, 7);
  }
  return r.stdout;
}

/** `text` with every occurrence of `secret` replaced by ***. */
export function redactSecret(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join('***') : text;
}

/** The privileges --db's account needs, said when it lacks them. */
export const DB_PRIVILEGES_NEEDED =
  "the --db account must be able to create a database and a user and grant that user privileges on that database: CREATE and DROP, CREATE USER, and GRANT OPTION (for example GRANT ALL PRIVILEGES ON `wpbench\\_%`.* TO 'you'@'host' WITH GRANT OPTION; GRANT CREATE USER ON *.* TO 'you'@'host')";

/** A database and user of a killed run, noted so that the next run against that server drops them (no password). */
export interface DbLeftover {
  host: string;
  port: number;
  name: string;
  user: string;
  host_seen: string;
  /** the sides' own databases and users (each named after `name`: name_<tag>) */
  extra?: string[];
}

/** The note a --db run keeps in its folder while it runs (read by the next run if this one is killed). */
export const DB_LEFTOVER_FILE = 'external-db.json';

/**
 * The user's server (--db): a database AND a user of WP Bench's own on it (a random password, every privilege on that
 * database and nothing else), reached by the site through a relay socket in `dbDir/sock` (PHP runs in a sandbox with
 * a network of its own). WordPress is given only that user. `stop` drops both, and only those. An account that cannot
 * create users is refused (exit 2) and nothing is left on the server.
 */
export async function useExternalDb(url: DbUrl, o: { dbDir: string; php: string; env: NodeJS.ProcessEnv; name: string; password: string; signal?: AbortSignal; leftovers?: readonly DbLeftover[]; onLeftoverDropped?: (l: DbLeftover) => void }): Promise<RunningDb> {
  if (!/^wpbench_[0-9a-f]{12}$/.test(o.name)) throw new Error(`useExternalDb: ${o.name} is not a name of WP Bench's`);
  const sql = (q: string | string[], refusedCode?: 2 | 7) => phpSql(o.php, url, q, o.env, { signal: o.signal, refusedCode });
  const [version, seen] = (await sql(['SELECT VERSION()', "SELECT SUBSTRING_INDEX(USER(), '@', -1)"])).split('\n');
  // A killed run's database and user on this server go first.
  for (const l of o.leftovers ?? []) {
    if (l.host !== url.host || l.port !== url.port || !/^wpbench_[0-9a-f]{12}$/.test(l.name) || l.user !== l.name) continue;
    for (const n of [l.name, ...(Array.isArray(l.extra) ? l.extra : []).filter((x) => typeof x === 'string' && x.startsWith(`${l.name}_`) && /^[a-z0-9_]{1,40}$/.test(x))]) {
      await sql(`DROP DATABASE IF EXISTS \`${n}\``).catch(() => undefined);
      await sql(`DROP USER IF EXISTS '${n}'@${sqlString(l.host_seen)}`).catch(() => undefined);
    }
    o.onLeftoverDropped?.(l);
  }
  const name = o.name;
  const user = name;
  const password = o.password;
  const host = seen.trim() || 'localhost';
  await fs.mkdir(path.join(o.dbDir, 'sock'), { recursive: true, mode: 0o700 });
  await fs.chmod(dbSocketDir(o.dbDir), 0o755);
  // The sides' own databases and users (sideDatabases.ts): noted before they are made, let through the relay, dropped.
  const extra: string[] = [];
  const note: DbLeftover = { host: url.host, port: url.port, name, user, host_seen: host, extra };
  const writeNote = () => fs.writeFile(path.join(o.dbDir, DB_LEFTOVER_FILE), JSON.stringify(note), { mode: 0o600 });
  await writeNote();
  const dropAll = async (signal?: AbortSignal) => {
    // Apart: an account that could not make the user cannot drop one either, and the database must go all the same.
    for (const n of [name, ...extra]) {
      await phpSql(o.php, url, `DROP DATABASE IF EXISTS \`${n}\``, o.env, { timeoutMs: 8000, signal }).catch(() => undefined);
      await phpSql(o.php, url, `DROP USER IF EXISTS '${n}'@${sqlString(host)}`, o.env, { timeoutMs: 8000, signal }).catch(() => undefined);
    }
  };
  try {
    await sql(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    // In a database-level GRANT "_" is a wildcard: escaped, the grant is on this one database only.
    await sql([`CREATE USER '${user}'@${sqlString(host)} IDENTIFIED BY ${sqlString(password)}`, `GRANT ALL PRIVILEGES ON \`${name.replace(/_/g, '\\_')}\`.* TO '${user}'@${sqlString(host)}`], 2);
  } catch (err) {
    await dropAll();
    if (err instanceof MeasureError && err.exitCode === 2) throw new MeasureError(`--db: ${url.user} cannot make WP Bench's user (the server said: ${err.message}); ${DB_PRIVILEGES_NEEDED}`, 2);
    throw err;
  }
  const socket = path.join(dbSocketDir(o.dbDir), 'relay.sock');
  const sockets = new Set<net.Socket>();
  const allowed = new Set([user]);
  const relay = net.createServer((inner) => {
    const outer = net.connect(url.port, tcpHost(url));
    sockets.add(inner).add(outer);
    // Only WordPress's user of this run gets through: the first packet must log in as it (no TLS, where the name could
    // not be read), and no later command may change user. Any other login (the server's root, the user's account) is
    // cut before the server sees it.
    const guard = loginGuard(allowed);
    inner.on('data', (chunk: Buffer) => {
      const pass = guard(chunk);
      if (pass === null) close();
      else if (pass.length) outer.write(pass);
    });
    outer.pipe(inner);
    const close = () => {
      inner.destroy();
      outer.destroy();
      sockets.delete(inner);
      sockets.delete(outer);
    };
    inner.on('error', close).on('close', close);
    outer.on('error', close).on('close', close);
  });
  try {
    await new Promise<void>((resolve, reject) => relay.once('error', reject).listen(socket, () => resolve()));
    // Later errors (EMFILE on accept) end a connection, never the process.
    relay.on('error', () => undefined);
  } catch (err) {
    await dropAll();
    throw err;
  }
  let stopped = false;
  return {
    info: { engine: /mariadb/i.test(version) ? 'mariadb' : 'mysql', version: /^\d+\.\d+\.\d+/.exec(version)?.[0] ?? version.slice(0, 40), server: 'external' },
    host: `localhost:${socket}`,
    name,
    user,
    password,
    admin: { host: url.host, port: url.port, user: url.user, password: url.password },
    userHost: host,
    naming: (tag) => `${name}_${tag}`,
    onSideAdded: async (d) => {
      extra.push(d.name);
      allowed.add(d.user);
      await writeNote();
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => relay.close(() => r()));
      await dropAll();
      await fs.rm(path.join(o.dbDir, DB_LEFTOVER_FILE), { force: true }).catch(() => undefined);
    },
  };
}

/**
 * Reads the client's side of a MySQL connection, packet by packet (3-byte length, 1-byte sequence): the first packet
 * (HandshakeResponse41: capabilities 4, max packet 4, character set 1, filler 23, then the user name, NUL-terminated)
 * must name one of `users` (the run's own) and ask for the plain 4.1 protocol (no compression, no TLS); an SSL request (32 bytes, before the
 * name) and a later COM_CHANGE_USER (a new command: sequence 0, first byte 0x11) are refused. Returns what of each chunk may be forwarded now (the login is held until whole),
 * or null once the connection must be cut.
 */
export function loginGuard(users: string | ReadonlySet<string>): (chunk: Buffer) => Buffer | null {
  const allowed = typeof users === 'string' ? new Set([users]) : users;
  let held = Buffer.alloc(0);
  let loggedIn = false;
  let denied = false;
  let skip = 0;
  let header = Buffer.alloc(0);
  const deny = () => {
    denied = true;
    return null;
  };
  const scan = (data: Buffer): Buffer | null => {
    const out: Buffer[] = [];
    let i = 0;
    while (i < data.length) {
      if (skip > 0) {
        const n = Math.min(skip, data.length - i);
        out.push(data.subarray(i, i + n));
        i += n;
        skip -= n;
        continue;
      }
      if (header.length < 4) {
        const take = data.subarray(i, i + 4 - header.length);
        header = Buffer.concat([header, take]);
        i += take.length;
        if (header.length < 4) break;
      }
      const len = header.readUIntLE(0, 3);
      if (len > 0) {
        // The command byte decides: wait for it.
        if (i >= data.length) break;
        if (header[3] === 0 && data[i] === 0x11) return deny();
      }
      out.push(header);
      header = Buffer.alloc(0);
      skip = len;
    }
    return Buffer.concat(out);
  };
  return (chunk) => {
    if (denied) return null;
    if (loggedIn) return scan(chunk);
    held = Buffer.concat([held, chunk]);
    if (held.length < 4) return Buffer.alloc(0);
    const len = held.readUIntLE(0, 3);
    if (len > 64 * 1024) return deny();
    if (held.length < 4 + len) return Buffer.alloc(0);
    if (len <= 32) return deny();
    // Only the plain 4.1 protocol, whose packets the guard reads: no compression (its frames would hide a later
    // COM_CHANGE_USER), no TLS, the user name at its 4.1 place.
    const caps = held.readUInt32LE(4);
    const CLIENT_COMPRESS = 0x20;
    const CLIENT_PROTOCOL_41 = 0x200;
    const CLIENT_SSL = 0x800;
    const CLIENT_ZSTD = 1 << 26;
    if ((caps & CLIENT_PROTOCOL_41) === 0 || caps & (CLIENT_COMPRESS | CLIENT_SSL | CLIENT_ZSTD)) return deny();
    const end = held.indexOf(0, 4 + 32);
    if (end < 0 || end >= 4 + len || !allowed.has(held.toString('utf8', 4 + 32, end))) return deny();
    loggedIn = true;
    const login = held.subarray(0, 4 + len);
    const rest = scan(held.subarray(4 + len));
    held = Buffer.alloc(0);
    return rest === null ? null : Buffer.concat([login, rest]);
  };
}

/** A MySQL single-quoted string literal. */
function sqlString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
