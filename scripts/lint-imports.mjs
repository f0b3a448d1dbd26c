// npm run lint:imports — the import rules the layers hold to (docs/architecture.md; STYLE.md
// rule 25): no import cycle among the server's and the app's modules (type-only imports count:
// a cycle of types is a cycle of modules someone will one day make a value), and nothing in db/
// imports lib/ or app/. Exits 1 naming each offence. CI runs it before the tests (.ci/run).
import path from 'node:path';
import madge from 'madge';

const root = process.cwd();
const res = await madge(['lib', 'db', 'app', 'cli', 'server.ts', 'proxy.ts'].map((p) => path.join(root, p)), {
  baseDir: root,
  fileExtensions: ['ts', 'tsx'],
  tsConfig: path.join(root, 'tsconfig.json'),
  excludeRegExp: [/\.test\.tsx?$/],
});
const problems = [];
for (const cycle of res.circular()) problems.push(`import cycle: ${[...cycle, cycle[0]].join(' → ')}`);
for (const [file, deps] of Object.entries(res.obj())) {
  if (!file.startsWith('db/')) continue;
  for (const dep of deps) if (/^(lib|app)\//.test(dep)) problems.push(`db/ imports ${dep.split('/')[0]}/: ${file} → ${dep}`);
}
const files = Object.keys(res.obj()).length;
if (files < 300) problems.push(`only ${files} modules read: is madge resolving the sources?`);
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`imports: ${files} modules, no cycle, db/ imports nothing from lib/ or app/`);
