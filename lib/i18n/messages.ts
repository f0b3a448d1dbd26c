import 'server-only';
import compile from 'icu-minify/compile';
import { createTranslator } from 'use-intl/core';
import ar from '../../messages/ar.json' with { type: 'json' };
import de from '../../messages/de.json' with { type: 'json' };
import en from '../../messages/en.json' with { type: 'json' };
import es from '../../messages/es.json' with { type: 'json' };
import fr from '../../messages/fr.json' with { type: 'json' };
import it from '../../messages/it.json' with { type: 'json' };
import ja from '../../messages/ja.json' with { type: 'json' };
import ko from '../../messages/ko.json' with { type: 'json' };
import nl from '../../messages/nl.json' with { type: 'json' };
import pl from '../../messages/pl.json' with { type: 'json' };
import ptBR from '../../messages/pt-BR.json' with { type: 'json' };
import tr from '../../messages/tr.json' with { type: 'json' };
import uk from '../../messages/uk.json' with { type: 'json' };
import zhCN from '../../messages/zh-CN.json' with { type: 'json' };
import type { Locale } from './locales';
import { pseudoMessages } from './pseudo';

/**
 * The message files (messages/<locale>.json), loaded once by the server. Next's pages get one
 * language's messages through the surface (lib/http/next-surface.ts) and hand the browser only
 * the namespaces a page uses; the server's own HTML pages (password, error, offline) format
 * them here. `npm run lint:messages` keeps every file complete and in step with English.
 */
export type Messages = typeof en;
const ALL: Record<Locale, Messages> = { en, de, fr, es, 'pt-BR': ptBR, it, nl, pl, uk, tr, 'zh-CN': zhCN, ja, ko, ar };

/**
 * The setting the messages follow, passed by their caller (lib/env.ts's localeSettings() reads
 * it): PSEUDO_LOCALE=1 writes English in the pseudo-locale (lib/i18n/pseudo.ts).
 */
export interface MessageSettings {
  pseudoLocale: boolean;
}

let pseudoEnglish: Messages | undefined;
export const messagesOf = (locale: Locale, settings: MessageSettings): Messages =>
  locale === 'en' && settings.pseudoLocale ? (pseudoEnglish ??= pseudoMessages(en)) : ALL[locale];

type Tree = { [key: string]: string | Tree };
const precompile = (tree: Tree): Tree => Object.fromEntries(Object.entries(tree).map(([k, v]) => [k, typeof v === 'string' ? (compile(v) as unknown as string) : precompile(v)]));
// By the messages compiled: pseudo-English is kept apart from English.
const compiled = new Map<Messages, Messages>();

/**
 * One language's messages precompiled (icu-minify, next-intl's own format) for Next's pages:
 * the browser then formats them without an ICU parser (`use-intl/format-message` is the
 * format-only build there: next.config.mjs), which keeps a guest page's JavaScript small.
 */
export function compiledMessagesOf(locale: Locale, settings: MessageSettings): Messages {
  const plain = messagesOf(locale, settings);
  let m = compiled.get(plain);
  if (!m) {
    // Plain objects (a JSON round trip): React hands the browser no null-prototype object.
    m = JSON.parse(JSON.stringify(precompile(plain as unknown as Tree))) as Messages;
    compiled.set(plain, m);
  }
  return m;
}

/** `t('guest.unlock')` in a language, for the pages the server writes without React. */
export function translator<N extends keyof Messages>(locale: Locale, namespace: N, settings: MessageSettings) {
  return createTranslator({ locale, messages: messagesOf(locale, settings), namespace });
}
