#!/usr/bin/env node
// The htmls command: the CLI compiled to plain JavaScript by `npm run build` (dist/htmls.mjs),
// with its packages inside but the optional OS keyring binding.
const { run } = await import('../dist/htmls.mjs');
run(process.argv.slice(2));
