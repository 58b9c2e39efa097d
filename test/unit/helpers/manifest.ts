// package.json as VS Code shows it: every "%key%" replaced by its English text from package.nls.json.
import fs from 'node:fs';
import path from 'node:path';

export function readManifest(root = path.resolve(__dirname, '..', '..', '..')): any {
  const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
  return JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'), (_key, value) => {
    if (typeof value !== 'string') return value;
    const m = /^%([^%]+)%$/.exec(value);
    if (!m) return value;
    if (!(m[1] in nls)) throw new Error(`package.nls.json has no "${m[1]}"`);
    return nls[m[1]];
  });
}
