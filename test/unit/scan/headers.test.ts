import * as assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import {
  matchOneRegex,
  parseFileHeaderLocations,
  parseFileHeaders,
  parsePluginHeaderLocation,
  parseThemeHeaderLocation,
} from '../../../src/core/scan';

const get = (text: string | Buffer, name = 'Plugin Name') => parseFileHeaders(text, [name])[name];

describe('scan: get_file_data() header parsing', () => {
  it('reads a standard docblock header', () => {
    const h = parseFileHeaders('<?php\n/**\n * Plugin Name: Akismet\n * Version: 5.3\n */', ['Plugin Name', 'Version', 'Author']);
    assert.deepEqual(h, { 'Plugin Name': 'Akismet', Version: '5.3', Author: '' });
  });
  it('requires the colon right after the name', () => {
    assert.equal(get('<?php\n/*\n * Plugin Name : Spaced\n */'), '');
  });
  it('is case-insensitive on the name', () => {
    assert.equal(get('<?php\n/*\n * PLUGIN NAME: Loud\n */'), 'Loud');
  });
  it('accepts the allowed prefixes and the PHP tag on the same line', () => {
    assert.equal(get('<?php /* Plugin Name: Same Line */ ?>'), 'Same Line');
    assert.equal(get('<? Plugin Name: Short Tag'), 'Short Tag');
    assert.equal(get('\t#@ Plugin Name: Hash'), 'Hash');
    assert.equal(get('// Plugin Name: Slashes'), 'Slashes');
    assert.equal(get('x Plugin Name: Nope'), '');
    assert.equal(get('$a = "Plugin Name: Nope";'), '');
  });
  it('turns CR and CRLF into line breaks', () => {
    assert.equal(get('<?php\r/*\r * Plugin Name: CR\r * Version: 1\r */'), 'CR');
    assert.equal(parseFileHeaders('<?php\r\n/*\r\n * Version: 2\r\n */', ['Version']).Version, '2');
  });
  it('cuts at */ and ?> and trims', () => {
    assert.equal(get('/* Plugin Name:   Spaced out   */'), 'Spaced out');
    assert.equal(get('# Plugin Name: Closing ?> tail'), 'Closing');
  });
  it('first match wins, an empty value counts as missing, "0" too', () => {
    assert.equal(get('/*\n * Plugin Name: First\n * Plugin Name: Second\n */'), 'First');
    assert.equal(get('/*\n * Plugin Name:\n * Plugin Name: Second\n */'), '');
    assert.equal(get('/*\n * Plugin Name:0\n */'), '');
  });
  it('only reads the first 8 KiB', () => {
    const pad = '/'.repeat(8192 - 30);
    const text = '<?php\n' + pad + '\n * Plugin Name: Cut Off Name Here\n';
    const name = get(text);
    assert.ok(name.length > 0 && 'Cut Off Name Here'.startsWith(name) && name !== 'Cut Off Name Here', name);
    assert.equal(get('<?php\n' + '/'.repeat(9000) + '\n * Plugin Name: Late\n'), '');
  });
  it('a BOM only hurts a header on line 1', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    assert.equal(get(Buffer.concat([bom, Buffer.from('<?php /* Plugin Name: One */')])), '');
    assert.equal(get(Buffer.concat([bom, Buffer.from('<?php\n/* Plugin Name: Two */')])), 'Two');
  });
  it('reads Latin-1 and UTF-8 values, never crashes on binary or UTF-16', () => {
    assert.equal(get(Buffer.concat([Buffer.from('/* Plugin Name: Caf'), Buffer.from([0xe9]), Buffer.from(' */')])), 'Café');
    assert.equal(get('/* Plugin Name: Café Ünï */'), 'Café Ünï');
    assert.equal(get(Buffer.from('<?php\n/* Plugin Name: Wide */', 'utf16le')), '');
    const bin = Buffer.from(Array.from({ length: 20000 }, (_, i) => (i * 7919 + 13) % 256));
    assert.equal(typeof get(bin), 'string');
  });
  it('agrees with the get_file_data() regex on random inputs', () => {
    const parts = ['Plugin Name', 'plugin name', 'PLUGIN NAME', ':', ' ', '\t', '\n', '\r', '\r\n', '*', '/', '#', '@', '<?', '<?php', '<?PHP', '?>', '*/', 'x', '0', 'é', 'Name', '\f', '\v', '\0'];
    let seed = 42;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
    for (let i = 0; i < 5000; i++) {
      let s = '';
      const len = 1 + rnd(25);
      for (let j = 0; j < len; j++) s += parts[rnd(parts.length)];
      const buf = Buffer.from(s, 'latin1');
      const ref = Buffer.from(matchOneRegex(buf, 'Plugin Name'), 'latin1');
      assert.equal(get(buf), isUtf8(ref) ? ref.toString('utf8') : ref.toString('latin1'), JSON.stringify(s));
    }
  });
  it('locates header values (1-based line and column, length of the value)', () => {
    const text = '<?php\n/**\n * Plugin Name: Hello Dolly\n * Version: 1.7\n */';
    assert.deepEqual(parsePluginHeaderLocation(text), { value: 'Hello Dolly', line: 3, column: 17, length: 11 });
    const crlf = text.replace(/\n/g, '\r\n');
    assert.deepEqual(parsePluginHeaderLocation(crlf), { value: 'Hello Dolly', line: 3, column: 17, length: 11 });
    assert.deepEqual(parseFileHeaderLocations(crlf, ['Version']).Version, { value: '1.7', line: 4, column: 13, length: 3 });
    assert.deepEqual(parseThemeHeaderLocation('/*\nTheme Name: Ünï Theme\n*/'), { value: 'Ünï Theme', line: 2, column: 13, length: 9 });
    assert.equal(parsePluginHeaderLocation('<?php // nothing'), null);
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('/* x */ // Plugin Name: A')]);
    assert.equal(parsePluginHeaderLocation(bom), null);
    const bom2 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('//x\n// Plugin Name: B')]);
    assert.deepEqual(parsePluginHeaderLocation(bom2), { value: 'B', line: 2, column: 17, length: 1 });
  });
});
