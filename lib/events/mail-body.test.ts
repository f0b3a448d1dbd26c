import { describe, expect, it } from 'vitest';
import { downloadsMail, keptAsWritten, quoted, UPLOAD_MAIL_FILES, uploadMail } from './mail-body';

describe('uploadMail', () => {
  it("escapes the uploader's name in the HTML body and keeps it as typed in the text body", () => {
    const m = uploadMail(
      { name: '<img src=x onerror=alert(1)>', email: null, message: null, requestNote: null, files: [{ path: 'a.txt', size: 1024 }, { path: 'b.txt', size: 1024 }], fileCount: 2, bytes: 2048 },
      { open: 'https://h/files', unsubscribe: 'https://h/unsubscribe?u=1&k=uploads&s=x' },
    );
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

describe('uploadMail: the files and the message', () => {
  const links = { open: 'https://h/files', unsubscribe: 'https://h/u' };
  it('names the first files with their sizes and counts the rest', () => {
    const files = Array.from({ length: UPLOAD_MAIL_FILES }, (_, i) => ({ path: `scan-${String(i).padStart(2, '0')}.pdf`, size: 1536 }));
    const m = uploadMail({ name: null, email: null, message: null, requestNote: 'Tax papers', files, fileCount: 23, bytes: 23 * 1536 }, links);
    expect(m.text).toContain('Someone uploaded 23 files (35 KB) through your file request “Tax papers”:');
    expect(m.text).toContain('• “scan-00.pdf” (1.5 KB)');
    expect(m.text).toContain(`• “scan-${UPLOAD_MAIL_FILES - 1}.pdf” (1.5 KB)`);
    expect(m.text).toContain('• and 3 more');
  });

  it("quotes the message with its line breaks, without controls, and says the sender's address", () => {
    const m = uploadMail(
      { name: 'Dana', email: 'dana@example.test', message: 'Hi,\r\nhere they are.\n\n\n\nBye \u202eexe.pdf', requestNote: null, files: [{ path: 'a.txt', size: null }], fileCount: 1, bytes: 1 },
      links,
    );
    expect(m.text).toContain('“Dana” (dana@example.test) uploaded 1 file (1 B)');
    expect(m.text).toContain('• “a.txt”\n');
    expect(m.text).toContain('“Dana” wrote:\n> Hi,\n> here they are.\n>\n> Bye  exe.pdf');
    expect(m.html).toContain('white-space:pre-wrap">Hi,\nhere they are.\n\nBye  exe.pdf</blockquote>');
    expect(keptAsWritten('x'.repeat(6000))).toHaveLength(5000);
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
