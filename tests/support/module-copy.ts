import { fileURLToPath } from 'node:url';

let copies = 0;

/**
 * Another instance of a module in this process — as the built server holds one copy of lib/ in
 * `.next/htmls/` and Next's bundle another — by importing its file again under another URL.
 * `file` is the module's URL (`new URL('./x.ts', import.meta.url)`).
 */
export function secondCopy<T>(file: URL): Promise<T> {
  // Digits only: Vite reads a dot in the query as the file's extension.
  return import(/* @vite-ignore */ `${fileURLToPath(file)}?copy=${Date.now()}${++copies}`) as Promise<T>;
}
