/**
 * `npm run lint:messages` (CI's lint step): the message files stay whole and in step
 * (docs/translations.md).
 * - every language has every key of English (messages/en.json, the reference), and no other;
 * - every message is valid ICU MessageFormat, with the same placeholders (arguments and rich-text
 *   tags) as its English one;
 * - every key is used: its full dotted path appears quoted in the source ('guest.unlock'), or its
 *   path within a namespace appears quoted in a file that names the namespace ('request' …
 *   'thanks'); keys built at run time are declared by a comment `i18n-keys: guest.errors.*`;
 * - messages/GLOSSARY.md has a column per language.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse, TYPE } from '@formatjs/icu-messageformat-parser';

const root = path.resolve(import.meta.dirname, '..');
const dir = path.join(root, 'messages');
const LOCALES = ['en', 'de', 'fr', 'es', 'pt-BR', 'it', 'nl', 'pl', 'uk', 'tr', 'zh-CN', 'ja', 'ko', 'ar'];
const errors = [];

const flatten = (obj, prefix = '') =>
  Object.entries(obj).flatMap(([k, v]) => (v && typeof v === 'object' ? flatten(v, `${prefix}${k}.`) : [[`${prefix}${k}`, v]]));

/** The placeholders of a message: its arguments (with their kind) and its tags, sorted. */
function placeholders(ast, out = new Set()) {
  for (const el of ast) {
    if (el.type === TYPE.argument) out.add(`{${el.value}}`);
    else if (el.type === TYPE.number || el.type === TYPE.date || el.type === TYPE.time) out.add(`{${el.value}}`);
    else if (el.type === TYPE.plural || el.type === TYPE.select) {
      out.add(`{${el.value}}`);
      for (const o of Object.values(el.options)) placeholders(o.value, out);
    } else if (el.type === TYPE.tag) {
      out.add(`<${el.value}>`);
      placeholders(el.children, out);
    }
  }
  return out;
}

const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
const missingFiles = LOCALES.filter((l) => !files.includes(`${l}.json`));
for (const l of missingFiles) errors.push(`messages/${l}.json is missing`);
for (const f of files) if (!LOCALES.includes(f.slice(0, -5))) errors.push(`messages/${f}: not one of the languages (${LOCALES.join(', ')})`);

const load = (l) => new Map(flatten(JSON.parse(readFileSync(path.join(dir, `${l}.json`), 'utf8'))));
const en = load('en');
const shapes = new Map();
for (const l of LOCALES) {
  if (missingFiles.includes(l)) continue;
  let m;
  try {
    m = load(l);
  } catch (e) {
    errors.push(`messages/${l}.json: not JSON (${e.message})`);
    continue;
  }
  for (const [key, value] of m) {
    if (!en.has(key)) errors.push(`${l}: ${key} is not in English (messages/en.json): remove it or add it there`);
    if (typeof value !== 'string' || value.trim() === '') {
      errors.push(`${l}: ${key} is empty or not a string`);
      continue;
    }
    let ast;
    try {
      ast = parse(value);
    } catch (e) {
      errors.push(`${l}: ${key} is not valid ICU MessageFormat (${e.message}): ${value}`);
      continue;
    }
    const shape = [...placeholders(ast)].sort().join(' ');
    if (l === 'en') shapes.set(key, shape);
    else if (shapes.has(key) && shapes.get(key) !== shape) errors.push(`${l}: ${key} has the placeholders [${shape}], English has [${shapes.get(key)}]`);
  }
  for (const key of en.keys()) if (!m.has(key)) errors.push(`${l}: ${key} is missing`);
}

// Unused keys: look through the source that can show a message.
const SOURCE_DIRS = ['app', 'lib', 'i18n'];
const sources = [];
const walk = (d) => {
  for (const n of readdirSync(d)) {
    const p = path.join(d, n);
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.(tsx?|mjs)$/.test(n) && !/\.test\.tsx?$/.test(n)) sources.push(readFileSync(p, 'utf8'));
  }
};
for (const d of SOURCE_DIRS) walk(path.join(root, d));
const quoted = (s, k) => s.includes(`'${k}'`) || s.includes(`"${k}"`) || s.includes(`\`${k}\``);
const declared = sources.flatMap((s) => [...s.matchAll(/i18n-keys:\s*([\w.*-]+(?:\s*,\s*[\w.*-]+)*)/g)].flatMap((m) => m[1].split(/\s*,\s*/)));
const byPattern = (key) => declared.some((p) => new RegExp(`^${p.replace(/\./g, '\\.').replace(/\*/g, '.*')}$`).test(key));
for (const key of en.keys()) {
  const [ns, ...rest] = key.split('.');
  const inNs = rest.join('.');
  const used = byPattern(key) || sources.some((s) => quoted(s, key) || (quoted(s, ns) && quoted(s, inNs)));
  if (!used) errors.push(`en: ${key} is used nowhere in ${SOURCE_DIRS.join('/, ')}/: remove it from every language`);
}

// The glossary: one column per language.
try {
  const glossary = readFileSync(path.join(dir, 'GLOSSARY.md'), 'utf8');
  const header = glossary.split('\n').find((line) => line.startsWith('|') && line.includes('en'));
  const cols = header ? header.split('|').map((c) => c.trim()) : [];
  for (const l of LOCALES) if (!cols.includes(l)) errors.push(`messages/GLOSSARY.md: no column for ${l}`);
} catch {
  errors.push('messages/GLOSSARY.md is missing');
}

if (errors.length) {
  console.error(`lint:messages: ${errors.length} problem(s)\n${errors.map((e) => `  ${e}`).join('\n')}`);
  process.exit(1);
}
console.log(`messages: ${LOCALES.length} languages × ${en.size} keys, valid ICU, placeholders as in English, every key used`);
