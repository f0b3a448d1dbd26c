import { describe, expect, it } from 'vitest';
import { formatBytesPair } from '../format-bytes';
import { createTranslator } from 'use-intl/core';
import ar from '../../messages/ar.json' with { type: 'json' };
import de from '../../messages/de.json' with { type: 'json' };
import en from '../../messages/en.json' with { type: 'json' };
import { statusByCode } from '../contract/error-codes';
import { ApiError } from './api';
import { CLIENT_ERROR_CODES } from './error-codes';
import { describeError, formatBytes, formatEta, parseSize } from './format';

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.0 KB'],
    [52_428_800, '50 MB'],
    [1.5 * 1024 ** 3, '1.5 GB'],
  ])('%d → %s', (n, s) => expect(formatBytes(n)).toBe(s));
});

describe('formatBytesPair', () => {
  it('says two different sizes differently, as one rule on the page and in the server’s answers', () => {
    // 15 MiB against 16,000,000 bytes: both "15 MB" alone.
    expect(formatBytesPair(15 * 1024 ** 2, 16_000_000)).toEqual(['15.00 MB', '15.26 MB']);
    expect(formatBytesPair(1024, 1025)).toEqual(['1,024 bytes', '1,025 bytes']);
    expect(formatBytesPair(1024, 2048)).toEqual(['1.0 KB', '2.0 KB']);
  });
});

describe('parseSize', () => {
  it('reads binary MB and GB, with MB as the default unit', () => {
    expect(parseSize('50')).toBe(52_428_800);
    expect(parseSize('50 MB')).toBe(52_428_800);
    expect(parseSize('1.5 gb')).toBe(1_610_612_736);
    expect(parseSize('2', 'GB')).toBe(2 * 1024 ** 3);
    expect(parseSize('lots')).toBeNull();
    expect(parseSize('-1')).toBeNull();
  });
});

describe('formatEta', () => {
  it('says seconds, minutes and hours', () => {
    expect(formatEta(0.2)).toBe('less than a second');
    expect(formatEta(42)).toBe('42 s');
    expect(formatEta(125)).toBe('2 min 5 s');
    expect(formatEta(3 * 3600 + 60)).toBe('3 h 1 min');
    expect(formatEta(Infinity)).toBe('—');
  });
});

describe('describeError in the reader’s language (the `errors` messages)', () => {
  const words = (locale: 'en' | 'de' | 'ar', messages: typeof en) => {
    const t = createTranslator({ locale, messages, namespace: 'errors' });
    return { t: (key: string, values?: Record<string, string | number>) => t(key as Parameters<typeof t>[0], values), english: locale === 'en' };
  };

  it('has a message for every code of the contract and of the client, and no other', () => {
    expect(Object.keys(en.errors.code).sort()).toEqual([...Object.keys(statusByCode), ...CLIENT_ERROR_CODES].sort());
  });

  it('German: the code’s meaning in German, the server’s own sentence kept as the detail where it names something', () => {
    const w = words('de', de as typeof en);
    expect(describeError(new ApiError(409, 'username_taken', 'username "ann" is taken'), w)).toBe('Dieser Benutzername ist vergeben. Wählen Sie einen anderen.');
    expect(describeError(new ApiError(400, 'invalid_request', 'password: at least 12 characters'), w)).toBe('Der Server hat die Anfrage abgelehnt: Etwas darin ist ungültig. (password: at least 12 characters)');
    expect(describeError(new ApiError(429, 'rate_limited', 'slow down', 1), w)).toBe('Zu viele Versuche. Versuchen Sie es in 1 Sekunde erneut.');
    expect(describeError(new ApiError(429, 'rate_limited', 'slow down', 30), w)).toBe('Zu viele Versuche. Versuchen Sie es in 30 Sekunden erneut.');
    expect(describeError(new ApiError(0, 'network_error', 'Failed to fetch'), w)).toBe('Der Server ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.');
    expect(describeError(new ApiError(0, 'stalled', 'No byte moved for 60 s.'), w)).toBe('Der Upload kommt nicht mehr voran. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.');
    // A code this console does not know (a newer server): the server's sentence.
    expect(describeError(new ApiError(400, 'brand_new' as never, 'A brand new refusal.'), w)).toBe('A brand new refusal.');
    expect(describeError(Object.assign(new Error('x'), { name: 'AbortError' }), w)).toBe('Abgebrochen.');
  });

  it('Arabic: its six plural forms', () => {
    const w = words('ar', ar as typeof en);
    expect(describeError(new ApiError(429, 'rate_limited', '', 2), w)).toContain('ثانيتين');
    expect(describeError(new ApiError(429, 'rate_limited', '', 5), w)).toContain('5 ثوانٍ');
  });

  it('English with the messages says what describeError said without them', () => {
    const w = words('en', en);
    const cases = [
      new ApiError(409, 'username_taken', 'username "ann" is taken'),
      new ApiError(400, 'invalid_request', 'password: at least 12 characters'),
      new ApiError(413, 'quota_exceeded', 'Not enough space: 6.1 MB free.'),
      new ApiError(429, 'rate_limited', '', 30),
      new ApiError(0, 'network_error', 'Failed to fetch'),
      new ApiError(0, 'stalled', 'No byte moved for 60 s.'),
      new Error('Local trouble.'),
    ];
    for (const err of cases) expect(describeError(err, w)).toBe(describeError(err));
  });
});
