// The calibration plugin of `--instructions` (test/measure/instructions.test.ts and bench figure 12): a loop of a known
// number of iterations on every request, and the same loop's instructions counted alone.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

const LOOP = 'function counted_work($n) { $s = 0; for ($i = 0; $i < $n; $i++) { $s += $i % 7; } return $s; }';

/** A plugin doing `n` iterations of the loop on every request (init). */
export function countedWorkPlugin(n: number, version = '1.0'): string {
  return `<?php
/**
 * Plugin Name: Counted work
 * Version: ${version}
 */
${LOOP}
add_action('init', function () { $GLOBALS['counted_work'] = counted_work(${n}); });
`;
}

/**
 * The loop's instructions counted alone: a PHP file under callgrind with n iterations, less the same with 0, with
 * opcache optimising it as the server's does (a file written less than 2 s ago is otherwise never cached).
 */
export function countedAlone(n: number, dir: string): number {
  const count = (k: number) => {
    const file = path.join(dir, `alone-${k}.php`);
    writeFileSync(file, `<?php ${LOOP} counted_work(${k});`);
    const out = path.join(dir, `alone-${k}.out`);
    execFileSync('valgrind', ['--tool=callgrind', '-q', `--callgrind-out-file=${out}`, 'php', '-d', 'opcache.enable_cli=1', '-d', 'opcache.file_update_protection=0', file], { stdio: 'ignore' });
    return Number(/^summary:\s+(\d+)/m.exec(readFileSync(out, 'utf8'))?.[1] ?? NaN);
  };
  return count(n) - count(0);
}
