#!/usr/bin/env node
// `npx htmls …` from the repository: the CLI is TypeScript, run through tsx.
import { register } from 'tsx/esm/api';

register();
await import('../scripts/cli.ts');
