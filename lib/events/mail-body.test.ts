import { describe, expect, it } from 'vitest';
import { LOCALES } from '../i18n/locales';
import { confirmationMail, downloadsMail, expiringMail, formatMailDate, keptAsWritten, mailLocale, mailShareTitle, quoted, UPLOAD_MAIL_FILES, uploadMail } from './mail-body';

const links = { open: 'https://h/files', unsubscribe: 'https://h/u' };
/** Control and bidi-override characters: none may reach a mail's subject. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('uploadMail', () => {
  it("escapes the uploader's name in the HTML body and keeps it as typed in the text body", () => {
    const m = uploadMail(
      'en',
      { name: '<img src=x onerror=alert(1)>', email: null, message: null, requestNote: null, files: [{ path: 'a.txt', size: 1024 }, { path: 'b.txt', size: 1024 }], fileCount: 2, bytes: 2048 },
      { open: 'https://h/files', unsubscribe: 'https://h/unsubscribe?u=1&k=uploads&s=x' },
    );
    // Guest-written text never reaches a subject (issue 39, item 3).
    expect(m.subject).toBe('You received 2 files through your file request');
    expect(m.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(m.html).not.toContain('<img');
    expect(m.html).toContain('href="https://h/unsubscribe?u=1&amp;k=uploads&amp;s=x"');
    expect(m.text).toContain('“<img src=x onerror=alert(1)>”');
    // Sizes as the pages say them, through Intl (lib/format-bytes.ts).
    expect(m.text).toContain('2.0 kB');
    expect(m.text).toContain('Stop e-mails about uploads through your requests: https://h/unsubscribe?u=1&k=uploads&s=x');
  });
});

describe('uploadMail: the files and the message', () => {
  it('names the first files with their sizes and counts the rest', () => {
    const files = Array.from({ length: UPLOAD_MAIL_FILES }, (_, i) => ({ path: `scan-${String(i).padStart(2, '0')}.pdf`, size: 1536 }));
    const m = uploadMail('en', { name: null, email: null, message: null, requestNote: 'Tax papers', files, fileCount: 23, bytes: 23 * 1536 }, links);
    expect(m.text).toContain('Someone uploaded 23 files (35 kB) through your file request “Tax papers”:');
    expect(m.text).toContain('• “scan-00.pdf” (1.5 kB)');
    expect(m.text).toContain(`• “scan-${UPLOAD_MAIL_FILES - 1}.pdf” (1.5 kB)`);
    expect(m.text).toContain('• and 3 more');
  });

  it("quotes the message with its line breaks, without controls, and says the sender's address", () => {
    const m = uploadMail(
      'en',
      { name: 'Dana', email: 'dana@example.test', message: 'Hi,\r\nhere they are.\n\n\n\nBye \u202eexe.pdf', requestNote: null, files: [{ path: 'a.txt', size: null }], fileCount: 1, bytes: 1 },
      links,
    );
    expect(m.text).toContain('“Dana” (dana@example.test) uploaded 1 file (1 B) through your file request:');
    expect(m.text).toContain('• “a.txt”\n');
    expect(m.text).toContain('“Dana” wrote:\n> Hi,\n> here they are.\n>\n> Bye  exe.pdf');
    expect(m.html).toContain('white-space:pre-wrap">Hi,\nhere they are.\n\nBye  exe.pdf</blockquote>');
    expect(keptAsWritten('x'.repeat(6000))).toHaveLength(5000);
  });

  it('says who sent it when only an address was given, or nobody', () => {
    const base = { name: null, message: null, requestNote: null, files: [{ path: 'a.txt', size: 1 }], fileCount: 1, bytes: 1 };
    expect(uploadMail('en', { ...base, email: 'x@example.test' }, links).text).toContain('Someone who gave the address x@example.test uploaded 1 file');
    // Intl puts a no-break space between a German number and its unit.
    expect(uploadMail('de', { ...base, email: null }, links).text).toContain('Jemand hat 1 Datei (1\u00a0Byte) über Ihre Dateianfrage hochgeladen:');
  });
});

describe('quoted', () => {
  it('puts a name on one line, without controls or bidi overrides, shortened and quoted', () => {
    expect(quoted('invoice\u202egpj.exe')).toBe('“invoice gpj.exe”');
    expect(quoted('a\r\nSubject: x\u2066y\u2069')).toBe('“a Subject: x y”');
    const long = quoted('x'.repeat(500));
    expect([...long]).toHaveLength(62);
    expect(long.endsWith('…”')).toBe(true);
  });

  it('keeps member text out of the subject of a download mail', () => {
    const m = downloadsMail('en', { id: 'abc', title: 'FREE PRIZE – claim at https://evil.test' }, [{ path: 'a.txt', bytes: 1, at: new Date('2026-01-02T03:04:00Z') }], links);
    expect(m.subject).toBe('Your share was downloaded');
    expect(m.text).toContain('Someone downloaded your share “FREE PRIZE – claim at https://evil.test” to the last byte:');
    expect(m.text).toContain('2 Jan 2026, 03:04 UTC');
  });
});

describe('the recipient’s language (issue 40)', () => {
  const at = new Date('2026-03-04T05:06:00Z');
  const hostile = 'Pay now\u202e\r\nBcc: x@evil.test';

  it('writes every mail in every language, with nothing guest-written or invisible in a subject', () => {
    for (const l of LOCALES) {
      const mails = [
        downloadsMail(l, { id: 'a', title: hostile }, [{ path: hostile, bytes: 1, at }, { path: null, bytes: 2048, at }], links),
        uploadMail(l, { name: hostile, email: 'e@example.test', message: hostile, requestNote: hostile, files: [{ path: hostile, size: 5 }], fileCount: 30, bytes: 9e6 }, links),
        expiringMail(l, { id: 'a', title: hostile, expiresAt: at }, links),
        confirmationMail(l, 'https://h/confirm-email?token=t', at),
      ];
      for (const m of mails) {
        expect(m.subject, l).not.toMatch(CONTROLS);
        expect(m.subject, l).not.toContain('Pay now');
        // A message that failed to format comes out as its key ("mail.uploadIntro").
        expect(m.text, l).not.toMatch(/\bmail\.\w+/);
        expect(m.html, l).toContain(`<html lang="${l}" dir="${l === 'ar' ? 'rtl' : 'ltr'}">`);
        // Guest text stays quoted on one line, its bidi override and line break gone.
        expect(m.text, l).not.toMatch(/[\u202e\r]/);
      }
      if (l !== 'en') expect(mails[0].subject, l).not.toBe(downloadsMail('en', { id: 'a', title: 'x' }, [{ path: 'a', bytes: 1, at }], links).subject);
    }
  });

  it('writes German from the glossary, with ICU plurals and Intl dates and sizes', () => {
    const one = downloadsMail('de', { id: 'a', title: 'Bericht' }, [{ path: 'a.pdf', bytes: 1536, at }], links);
    expect(one.subject).toBe('Ihre Freigabe wurde heruntergeladen');
    expect(one.text).toContain('Jemand hat Ihre Freigabe „Bericht“ vollständig heruntergeladen:');
    expect(one.text).toContain('• „a.pdf“ (1,5 kB) am 04.03.2026, 05:06 UTC');
    expect(one.text).toContain('Keine E-Mails mehr zu Downloads: https://h/u');
    expect(downloadsMail('de', { id: 'a', title: 'Bericht' }, [{ path: null, bytes: 1, at }, { path: null, bytes: 1, at }], links).subject).toBe('Ihre Freigabe wurde 2-mal heruntergeladen');
    const upload = uploadMail('de', { name: null, email: null, message: null, requestNote: null, files: [], fileCount: 1, bytes: 10 }, links);
    expect(upload.subject).toBe('Sie haben 1 Datei über Ihre Dateianfrage erhalten');
    expect(uploadMail('de', { name: null, email: null, message: null, requestNote: null, files: [], fileCount: 3, bytes: 10 }, links).subject).toBe('Sie haben 3 Dateien über Ihre Dateianfrage erhalten');
    expect(confirmationMail('de', 'https://h/c', at).subject).toBe('Bestätigen Sie Ihre E-Mail-Adresse für htmls');
  });

  it('quotes someone’s words with the language’s own marks, and sets links as the language does', () => {
    const m = (l: 'fr' | 'ja' | 'ar') => expiringMail(l, { id: 'a', title: 'Deck', expiresAt: at }, links).text;
    expect(m('fr')).toContain('Votre partage «\u00a0Deck\u00a0» expire le 4 mars 2026, 05:06 UTC.');
    expect(m('fr')).toContain('Ouvrir htmls\u00a0: https://h/files');
    expect(m('ja')).toContain('共有リンク「Deck」の有効期限');
    expect(m('ar')).toContain('«Deck»');
  });

  it('follows each language’s plural rules and dates', () => {
    const many = (l: 'pl' | 'uk' | 'ar', n: number) => uploadMail(l, { name: null, email: null, message: null, requestNote: null, files: [], fileCount: n, bytes: 1 }, links).subject;
    expect(many('pl', 3)).toContain('3 pliki');
    expect(many('pl', 5)).toContain('5 plików');
    expect(many('uk', 2)).toContain('2 файли');
    expect(many('ar', 2)).toContain('ملفين');
    expect(formatMailDate(at, 'ja')).toBe('2026/03/04 5:06 UTC');
    expect(formatMailDate(at, 'en')).toBe('4 Mar 2026, 05:06 UTC');
  });

  it('names a share without a note in the recipient’s language', () => {
    expect(mailShareTitle('de', '', 'docs/report.pdf', 3)).toBe('report.pdf und 2 weitere');
    expect(mailShareTitle('fr', '', null, 0)).toBe('Fichiers partagés');
    expect(mailShareTitle('de', 'Steuer\n2025', 'a', 1)).toBe('Steuer');
  });

  it('takes the member’s language, else the default', () => {
    expect(mailLocale('de', 'fr')).toBe('de');
    expect(mailLocale(null, 'fr')).toBe('fr');
    expect(mailLocale('xx', 'en')).toBe('en');
  });
});
