// Loaded before the unit tests (.mocharc.json): every temporary folder they make under os.tmpdir() — theirs and
// those of the CLIs they start, which inherit TMPDIR — goes into one folder for the run, removed when the run ends.
// Without it, each `npm test` left a few thousand wpb-* folders in /tmp.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wpb-unit-'));
process.env.TMPDIR = root;

exports.mochaHooks = {
  afterAll() {
    fs.rmSync(root, { recursive: true, force: true });
  },
};
