import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { createTranslator } from 'use-intl/core';
import { describe, expect, it } from 'vitest';
import en from '../../messages/en.json' with { type: 'json' };
import { plainWords, pseudoMessage, pseudoMessages } from './pseudo';

/** The text a reader sees in a message: its literal parts, in every branch and tag. */
function literals(elements: MessageFormatElement[]): string[] {
  return elements.flatMap((el) => {
    if (el.type === TYPE.literal) return [el.value];
    if (el.type === TYPE.tag) return literals(el.children);
    if (el.type === TYPE.plural || el.type === TYPE.select) return Object.values(el.options).flatMap((o) => literals(o.value));
    return [];
  });
}

describe('the pseudo-locale', () => {
  it('accents the text, keeps arguments, plural keys and tags, and pads by 40 %', () => {
    const m = pseudoMessage('{count, plural, one {# file} other {# files}} from <b>{name}</b>');
    expect(m).toMatch(/^⟦.*⟧$/);
    expect(literals(parse(m)).flatMap(plainWords)).toEqual([]);
    const t = createTranslator({ locale: 'en', messages: { m } });
    const out = t.markup('m', { count: 2, name: 'Ann', b: (chunks: string) => `*${chunks}*` });
    expect(out).toContain('2 ƒîļéš');
    expect(out).toContain('*Ann*');
    // "2 files from Ann" has 14 letters and spaces of ours: at least 40 % more in padding.
    expect(out.match(/·/g)!.length).toBeGreaterThanOrEqual(Math.ceil(' files from '.length * 0.4));
  });

  it('writes every English message as valid ICU without a plain word', () => {
    const pseudo = pseudoMessages(en) as unknown as Record<string, Record<string, unknown>>;
    const strings: string[] = [];
    const walk = (t: unknown) => (typeof t === 'string' ? strings.push(t) : Object.values(t as object).forEach(walk));
    walk(pseudo);
    expect(strings.length).toBeGreaterThan(50);
    for (const s of strings) {
      expect(literals(parse(s)).flatMap(plainWords), s).toEqual([]);
    }
  });
});
