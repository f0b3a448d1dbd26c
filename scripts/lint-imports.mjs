// npm run lint:imports — the import rules the layers hold to (docs/architecture.md; STYLE.md
// rules 17 and 25): no import cycle among the server's and the app's modules (type-only imports
// count: a cycle of types is a cycle of modules someone will one day make a value), nothing in
// db/ imports lib/ or app/, the use cases import nothing of lib/http/ (HTTP adapters live there and
// call down into lib/<domain>/, never the other way), and no client module (a 'use client' file, lib/client/
// with its upload engine, cli/, and what they import) imports a server-only module, not even for a
// type, and the hosted front's worker loads no messages, lib/i18n/ or db/. Exits 1 naming each offence. CI runs it before the tests (.ci/run).
import { readFileSync } from 'node:fs';
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
// Above lib/http/: the process's wiring (the janitor reads the longest request's time).
const HTTP_IMPORTERS = [/^lib\/http\//, /^lib\/janitor\.ts$/, /^lib\/boot\.ts$/];
for (const [file, deps] of Object.entries(res.obj())) {
  if (!file.startsWith('lib/') || HTTP_IMPORTERS.some((re) => re.test(file))) continue;
  for (const dep of deps) if (dep.startsWith('lib/http/')) problems.push(`a use case imports lib/http/ (adapters call use cases, not the reverse): ${file} → ${dep}`);
}
const graph = res.obj();
const head = (file) => readFileSync(path.join(root, file), 'utf8').slice(0, 400);
const serverOnly = (file) => /^import 'server-only';/m.test(head(file));
const clientRoots = Object.keys(graph).filter((f) => /^(lib\/client|cli)\//.test(f) || /^\s*['"]use client['"]/.test(head(f)));
const seen = new Set(clientRoots);
for (const queue = [...clientRoots]; queue.length; ) {
  const file = queue.shift();
  for (const dep of graph[file] ?? []) {
    if (serverOnly(dep)) problems.push(`a client module imports a server-only one: ${file} → ${dep}`);
    else if (!seen.has(dep)) queue.push(dep), seen.add(dep);
  }
}
// The hosted front's worker (lib/http/hosted-front.ts) loads nothing of the pages' languages or
// the database: it answers kept replies and forwards the rest, and each thread that starts it
// would otherwise parse the 14 message files. Read as it runs: type-only imports are erased,
// JSON files are modules.
const WORKER = 'lib/http/hosted-front.ts';
const worker = await madge(path.join(root, WORKER), {
  baseDir: root,
  fileExtensions: ['ts', 'tsx', 'json'],
  tsConfig: path.join(root, 'tsconfig.json'),
  detectiveOptions: { ts: { skipTypeImports: true }, tsx: { skipTypeImports: true } },
});
const workerFiles = Object.keys(worker.obj());
if (workerFiles.length < 5) problems.push(`only ${workerFiles.length} modules read for ${WORKER}: is madge resolving it?`);
for (const file of workerFiles) {
  if (/^(messages\/|lib\/i18n\/|db\/)/.test(file)) problems.push(`the hosted front's worker loads ${file}: ${worker.depends(file).join(', ')} → ${file}`);
}
const files = Object.keys(graph).length;
if (files < 300) problems.push(`only ${files} modules read: is madge resolving the sources?`);
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`imports: ${files} modules (${seen.size} on the client side), no cycle, db/ imports nothing from lib/ or app/, nothing outside lib/http/ imports it but the wiring, no client module imports a server-only one, the hosted front's worker loads no messages, lib/i18n/ or db/ (${workerFiles.length} modules)`);
