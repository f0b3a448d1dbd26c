import { describe, expect, it } from 'vitest';
import { uploadMail } from './mail-body';

describe('uploadMail', () => {
  it("escapes the uploader's name in the HTML body and keeps it as typed in the text body", () => {
    const m = uploadMail({ name: '<img src=x onerror=alert(1)>', file_count: 2, bytes: 2048 }, { open: 'https://h/files', unsubscribe: 'https://h/unsubscribe?u=1&k=uploads&s=x' });
    expect(m.subject).toBe('<img src=x onerror=alert(1)> sent you 2 files');
    expect(m.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(m.html).not.toContain('<img');
    expect(m.html).toContain('href="https://h/unsubscribe?u=1&amp;k=uploads&amp;s=x"');
    expect(m.text).toContain('2.0 KiB');
    expect(m.text).toContain('https://h/unsubscribe?u=1&k=uploads&s=x');
  });
});
