#!/usr/bin/env node
// `npx htmls …` from the repository: the CLI package's compiled JavaScript (packages/cli), made
// by `npm run build`.
import { existsSync } from 'node:fs';

const compiled = new URL('../packages/cli/dist/htmls.mjs', import.meta.url);
if (!existsSync(compiled)) {
  console.error('htmls: the CLI is not built yet: run npm run build');
  process.exit(1);
}
const { run } = await import(compiled.href);
run(process.argv.slice(2));
