import { describe, expect, it } from 'vitest';
import { parseEnv } from '../env';
import { acceptedLanguages, dirOf, isLocale, matchLocale, negotiateLocale } from './locales';

describe('a request’s language (issue 40)', () => {
  it('reads Accept-Language by q-value, then by order; drops * and q=0', () => {
    expect(acceptedLanguages('fr;q=0.5, de-AT, *;q=0.1, ja;q=0')).toEqual(['de-AT', 'fr']);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });

  it('matches a tag exactly, else by its language; Traditional Chinese is not taken for Simplified', () => {
    expect(matchLocale('de-AT')).toBe('de');
    expect(matchLocale('PT-pt')).toBe('pt-BR');
    expect(matchLocale('zh-Hans-SG')).toBe('zh-CN');
    expect(matchLocale('zh-TW')).toBeNull();
    expect(matchLocale('ar_EG')).toBe('ar');
    expect(matchLocale('sw')).toBeNull();
    expect(matchLocale('<script>')).toBeNull();
  });

  it('profile, else cookie, else Accept-Language, else the default', () => {
    const defaultLocale = 'en' as const;
    expect(negotiateLocale({ profile: 'ko', cookie: 'de', acceptLanguage: 'fr', defaultLocale })).toBe('ko');
    expect(negotiateLocale({ cookie: 'de', acceptLanguage: 'fr', defaultLocale })).toBe('de');
    expect(negotiateLocale({ cookie: 'klingon', acceptLanguage: 'sw, fr-CA;q=0.8', defaultLocale })).toBe('fr');
    expect(negotiateLocale({ acceptLanguage: 'sw', defaultLocale: 'pl' })).toBe('pl');
    // The cookie holds our spelling only: a look-alike is not trusted.
    expect(isLocale('pt-br')).toBe(false);
    expect(dirOf('ar')).toBe('rtl');
    expect(dirOf('uk')).toBe('ltr');
  });

  it('DEFAULT_LOCALE: one of ours (any case), `en` when unset, refused otherwise', () => {
    expect(parseEnv({}).defaultLocale).toBe('en');
    expect(parseEnv({ DEFAULT_LOCALE: 'zh-cn' }).defaultLocale).toBe('zh-CN');
    expect(() => parseEnv({ DEFAULT_LOCALE: 'xx' })).toThrow(/DEFAULT_LOCALE must be one of/);
  });
});
