import { describe, expect, it } from 'vitest';
import { sharexConfig, sharexFileName, snippets } from './integrations';

describe('integrations', () => {
  it('sharexConfig — a multipart POST to /api/shares/files with the token, the link from share.url', () => {
    const c = sharexConfig('https://files.example.com', 'htmls_pat_abc');
    expect(c).toMatchObject({
      RequestMethod: 'POST',
      RequestURL: 'https://files.example.com/api/shares/files',
      Body: 'MultipartFormData',
      FileFormName: 'file',
      Headers: { Authorization: 'Bearer htmls_pat_abc' },
      URL: 'https://files.example.com{json:share.url}',
    });
    expect(sharexFileName('http://localhost:3000')).toBe('htmls-localhost_3000.sxcu');
  });

  it('snippets — curl -T ends the URL with / (curl appends the file name), the CLI reads HTMLS_TOKEN', () => {
    const s = snippets('https://files.example.com', 'htmls_pat_abc');
    expect(s.curl).toContain('-T photo.jpg https://files.example.com/api/shares/file/');
    expect(s.cli).toContain('HTMLS_TOKEN=htmls_pat_abc');
    expect(s.phone).toContain('https://files.example.com/api/shares/files');
  });
});
