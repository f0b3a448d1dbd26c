import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { printAST } from '@formatjs/icu-messageformat-parser/printer.js';

/**
 * The pseudo-locale (issue 40, item 6; docs/translations.md): English with every letter
 * accented, 40 % longer and in brackets. With PSEUDO_LOCALE=1 the server writes its English
 * pages in it, so a string that does not come from the message files — an untranslated one —
 * is the only plain ASCII word left on a page (e2e/pseudo-locale.spec.ts looks for them), and
 * a layout that clips or overflows with longer languages shows it at once.
 */
const PLAIN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ACCENTED = 'áƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ';
const MAP = new Map([...PLAIN].map((c, i) => [c, [...ACCENTED][i]]));

const accent = (text: string): string => [...text].map((c) => MAP.get(c) ?? c).join('');

/** The literal text of a message's elements accented in place; arguments, tags' names and plural keys kept. */
function accentElements(elements: MessageFormatElement[]): number {
  let letters = 0;
  for (const el of elements) {
    if (el.type === TYPE.literal) {
      el.value = accent(el.value);
      letters += el.value.length;
    } else if (el.type === TYPE.tag) {
      letters += accentElements(el.children);
    } else if (el.type === TYPE.plural || el.type === TYPE.select) {
      // The longest branch is what the padding is for.
      letters += Math.max(0, ...Object.values(el.options).map((o) => accentElements(o.value)));
    }
  }
  return letters;
}

/** One ICU message in the pseudo-locale: accented, bracketed, padded by 40 % of its text. */
export function pseudoMessage(message: string): string {
  const ast = parse(message);
  const letters = accentElements(ast);
  return `⟦${printAST(ast)}${'·'.repeat(Math.ceil(letters * 0.4))}⟧`;
}

type Tree = { [key: string]: string | Tree };

/** A whole message tree (messages/en.json) in the pseudo-locale, same keys. */
export function pseudoMessages<T>(tree: T): T {
  const walk = (t: Tree): Tree => Object.fromEntries(Object.entries(t).map(([k, v]) => [k, typeof v === 'string' ? pseudoMessage(v) : walk(v)]));
  return walk(tree as unknown as Tree) as unknown as T;
}

/** Whether a run of text carries a plain ASCII word (two letters or more): text the pseudo-locale did not write. */
export const plainWords = (text: string): string[] => text.match(/[A-Za-z]{2,}/g) ?? [];
