// The old WordPress core the measure suite installs on today's PHP (test/measure/old-core.test.ts): Debian bullseye's
// packaged WordPress 5.7.14, fetched from Debian's archive (the only core before 6.1 reachable from Debian's and npm's
// servers), its SHA-256 checked, unpacked with dpkg-deb into node_modules/.cache (npm ci starts it again). Idempotent.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = '5.7.14';
const URL = 'http://deb.debian.org/debian-security/pool/updates/main/w/wordpress/wordpress_5.7.14+dfsg1-0+deb11u1_all.deb';
const SHA256 = 'f83af86d9f5e186affa304bad301c569d74624880ca1d0f8c60658ad54055c5a';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dest = path.join(root, 'node_modules', '.cache', 'wp-bench-old-core', VERSION);
const core = path.join(dest, 'usr', 'share', 'wordpress');

if (existsSync(path.join(core, 'wp-includes', 'version.php'))) process.exit(0);
console.error(`[measure] fetching WordPress ${VERSION} (Debian bullseye's package) for the old-core test`);
let body;
for (let attempt = 1; ; attempt++) {
  try {
    const res = await fetch(URL, { signal: AbortSignal.timeout(120_000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    body = Buffer.from(await res.arrayBuffer());
    break;
  } catch (e) {
    if (attempt === 3) {
      console.error(`[measure] could not fetch ${URL}: ${e.message}`);
      process.exit(1);
    }
    await new Promise((r) => setTimeout(r, 2000 * attempt));
  }
}
const got = createHash('sha256').update(body).digest('hex');
if (got !== SHA256) {
  console.error(`[measure] ${URL}: SHA-256 ${got}, expected ${SHA256}`);
  process.exit(1);
}
const tmp = `${dest}.tmp-${process.pid}`;
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });
writeFileSync(path.join(tmp, 'wordpress.deb'), body);
execFileSync('dpkg-deb', ['-x', path.join(tmp, 'wordpress.deb'), tmp], { stdio: 'inherit' });
rmSync(path.join(tmp, 'wordpress.deb'));
rmSync(dest, { recursive: true, force: true });
renameSync(tmp, dest);
console.error(`[measure] WordPress ${VERSION} in ${path.relative(root, core)}`);
