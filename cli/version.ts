/** The CLI's version: the package's, written in by the bundler (scripts/build-hash.mjs); "dev" when run from source. */
declare const __HTMLS_VERSION__: string | undefined;

export const VERSION: string = typeof __HTMLS_VERSION__ === 'string' ? __HTMLS_VERSION__ : 'dev';
