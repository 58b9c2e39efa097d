import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { ZipError, extractZip, readZip, safeEntryPath } from '../../../../src/core/measure/site/zip';
import { phpString } from '../../../../src/core/measure/php/phpFiles';
import { runMeasureCli } from '../../../../src/cli/measure';

/** A minimal zip (one deflated entry per file) for the reader's tests. */
function makeZip(files: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text);
    const comp = deflateRawSync(data);
    const n = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(comp.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(n.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(comp.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(n.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, n, comp);
    centrals.push(central, n);
    offset += 30 + n.length + comp.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

describe('measure: zip reader (the SQLite integration ships as a zip)', () => {
  it('reads deflated entries', () => {
    const entries = readZip(makeZip({ 'a/b.php': '<?php echo 1;', 'c.txt': 'x'.repeat(10000) }));
    assert.deepEqual(entries.map((e) => [e.name, e.data.length]), [['a/b.php', 13], ['c.txt', 10000]]);
  });
  it('refuses what is not a zip', () => {
    assert.throws(() => readZip(Buffer.from('not a zip at all, not even close to one')), ZipError);
  });
  it('entry names never climb out of the target folder', () => {
    assert.equal(safeEntryPath('../../etc/passwd'), null);
    assert.equal(safeEntryPath('/abs/file'), null);
    assert.equal(safeEntryPath('C:/x'), null);
    assert.equal(safeEntryPath('a/../../b'), null);
    assert.equal(safeEntryPath('a/./b.php'), path.join('a', 'b.php'));
  });
  it('extracts only the prefix, skipping hostile names', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-zip-'));
    try {
      const zip = path.join(dir, 'x.zip');
      await fs.writeFile(zip, makeZip({ 'p/ok.php': 'ok', 'p/../evil.php': 'evil', 'other/no.php': 'no' }));
      const n = await extractZip(zip, path.join(dir, 'out'), 'p/');
      assert.equal(n, 1);
      assert.equal(await fs.readFile(path.join(dir, 'out', 'ok.php'), 'utf8'), 'ok');
      assert.deepEqual(await fs.readdir(path.join(dir, 'out')), ['ok.php']);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it("wordpress.org's zip (one top folder of another name): that folder is the prefix", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wpbench-zip-'));
    try {
      const zip = path.join(dir, 'x.zip');
      await fs.writeFile(zip, makeZip({ 'sqlite-database-integration/load.php': 'l', 'sqlite-database-integration/wp-includes/sqlite/db.php': 'd' }));
      assert.equal(await extractZip(zip, path.join(dir, 'out'), 'plugin-sqlite-database-integration/'), 2);
      assert.equal(await fs.readFile(path.join(dir, 'out', 'wp-includes', 'sqlite', 'db.php'), 'utf8'), 'd');
      await fs.writeFile(zip, makeZip({ 'a/x.php': 'x', 'b/y.php': 'y' }));
      assert.equal(await extractZip(zip, path.join(dir, 'out2'), 'p/'), 0, 'two top folders: nothing guessed');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('measure: PHP literals and the CLI front', () => {
  it('phpString escapes quotes and backslashes, so no path breaks out of the literal', () => {
    assert.equal(phpString("/tmp/it's\\x"), "'/tmp/it\\'s\\\\x'");
  });

  const run = async (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runMeasureCli(argv, { out: (t) => out.push(t), err: (t) => err.push(t), env: {}, cwd: os.tmpdir(), cacheDir: os.tmpdir() });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  it('a --db naming a database (WP Bench makes its own) is refused (exit 2) before anything runs, the password hidden', async () => {
    const r = await run(['.', '--db', 'mysql://u:s3cret@127.0.0.1/x']);
    assert.equal(r.code, 2);
    assert.match(r.err, /--db takes sqlite or mysql:\/\/USER:PASS@HOST:PORT\/ \(got mysql:\/\/u:\*\*\*@127\.0\.0\.1\/x\)/);
    assert.ok(!r.err.includes('s3cret'));
  });
  it('usage errors exit 2; --help prints the options', async () => {
    assert.equal((await run([])).code, 2);
    assert.equal((await run(['a', '--runtime', 'docker'])).code, 2);
    assert.equal((await run(['a', '--rounds', '0'])).code, 2);
    assert.equal((await run(['a', '--bogus'])).code, 2);
    const h = await run(['--help']);
    assert.equal(h.code, 0);
    assert.match(h.out, /--runtime php\|playground/);
  });
  it('a PATH with no header: exit 2 and what was looked for', async () => {
    const r = await run([path.join(os.tmpdir(), 'wpbench-surely-missing-path')]);
    assert.equal(r.code, 2);
    assert.match(r.err, /looked for a plugin folder/);
  });
});
