#!/usr/bin/env node
// `npx htmls …` from the repository: the CLI (cli/) is TypeScript, run through tsx.
import { register } from 'tsx/esm/api';

register();
const { run } = await import('../cli/main.ts');
run(process.argv.slice(2));
