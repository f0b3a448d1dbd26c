import { describe, expect, it } from 'vitest';
import { downloadsMail, quoted, uploadMail } from './mail-body';

describe('uploadMail', () => {
  it("escapes the uploader's name in the HTML body and keeps it as typed in the text body", () => {
    const m = uploadMail({ name: '<img src=x onerror=alert(1)>', file_count: 2, bytes: 2048 }, { open: 'https://h/files', unsubscribe: 'https://h/unsubscribe?u=1&k=uploads&s=x' });
    // Guest-written text never reaches a subject (issue 39, item 3).
    expect(m.subject).toBe('You received 2 files through your file request');
    expect(m.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(m.html).not.toContain('<img');
    expect(m.html).toContain('href="https://h/unsubscribe?u=1&amp;k=uploads&amp;s=x"');
    expect(m.text).toContain('“<img src=x onerror=alert(1)>”');
    // Sizes as the page says them (lib/format-bytes.ts).
    expect(m.text).toContain('2.0 KB');
    expect(m.text).toContain('https://h/unsubscribe?u=1&k=uploads&s=x');
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
    const m = downloadsMail({ id: 'abc', title: 'FREE PRIZE – claim at https://evil.test' }, [{ path: 'a.txt', bytes: 1, at: new Date('2026-01-02T03:04:00Z') }], { open: 'https://h/files', unsubscribe: 'https://h/u' });
    expect(m.subject).toBe('Your share was downloaded');
    expect(m.text).toContain('“FREE PRIZE – claim at https://evil.test”');
    expect(m.text).toContain('2 Jan 2026, 03:04 UTC');
  });
});
