// Node built-ins that only some commands need, loaded on first use: `wp-bench scan` and the extension's activation do
// not pay for crypto, child_process, http, net, zlib or fs/promises (about 8 ms of a CLI start; npm run bench, figure
// 1b). Node caches each module, so a second call is a property read. Plain Node; no vscode.
/* eslint-disable @typescript-eslint/no-require-imports */
import type * as ChildProcess from 'node:child_process';
import type * as Crypto from 'node:crypto';
import type * as FsPromises from 'node:fs/promises';
import type * as Http from 'node:http';
import type * as Net from 'node:net';
import type * as Zlib from 'node:zlib';

export const childProcess = (): typeof ChildProcess => require('node:child_process');
export const crypto = (): typeof Crypto => require('node:crypto');
export const fsp = (): typeof FsPromises => require('node:fs/promises');
export const http = (): typeof Http => require('node:http');
export const net = (): typeof Net => require('node:net');
export const zlib = (): typeof Zlib => require('node:zlib');
