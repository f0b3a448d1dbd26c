import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env';
import { downloadOrigin, pageCsp } from './security/csp';

const S3 = { STORAGE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'http://127.0.0.1:7480', S3_FORCE_PATH_STYLE: 'true', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' };
const problems = (src: Record<string, string>) => {
  try {
    parseEnv(src);
    return [];
  } catch (e) {
    return (e as EnvError).problems;
  }
};

describe('DOWNLOAD_MODE', () => {
  it('is proxy by default; redirect needs S3; DOWNLOAD_BASE_URL needs redirect', () => {
    expect(parseEnv({}).download).toEqual({ mode: 'proxy' });
    expect(problems({ DOWNLOAD_MODE: 'redirect' })).toEqual(['DOWNLOAD_MODE=redirect needs the S3 store (STORAGE=s3)']);
    expect(problems({ ...S3, DOWNLOAD_BASE_URL: 'https://cdn.example.com' })).toEqual(['DOWNLOAD_BASE_URL applies only with DOWNLOAD_MODE=redirect']);
    expect(problems({ ...S3, DOWNLOAD_MODE: 'redirect', DOWNLOAD_BASE_URL: 'ftp://x' })[0]).toMatch(/DOWNLOAD_BASE_URL must be an http\(s\) URL/);
    expect(parseEnv({ ...S3, DOWNLOAD_MODE: 'redirect', DOWNLOAD_BASE_URL: 'https://cdn.example.com/files/' }).download).toEqual({
      mode: 'redirect',
      baseUrl: 'https://cdn.example.com/files',
      urlSeconds: 900,
    });
  });

  it("lets the pages' players load from where redirects point", () => {
    expect(downloadOrigin(parseEnv(S3))).toBeNull();
    expect(pageCsp('n', parseEnv({ ...S3, DOWNLOAD_MODE: 'redirect' }))).toContain("media-src 'self' blob: http://127.0.0.1:7480;");
    expect(pageCsp('n', parseEnv({ ...S3, DOWNLOAD_MODE: 'redirect', DOWNLOAD_BASE_URL: 'https://cdn.example.com/x' }))).toContain(
      "media-src 'self' blob: https://cdn.example.com;",
    );
  });
});

describe('DOWNLOAD_SLOT_WAIT_SECONDS', () => {
  it('is 10 s by default, takes decimals, and refuses what is not a time a download could wait', () => {
    expect(parseEnv({}).downloadSlotWaitMs).toBe(10_000);
    expect(parseEnv({ DOWNLOAD_SLOT_WAIT_SECONDS: '2.5' }).downloadSlotWaitMs).toBe(2500);
    for (const bad of ['0', '-1', 'soon', '3601']) expect(problems({ DOWNLOAD_SLOT_WAIT_SECONDS: bad }).join(' ')).toMatch(/DOWNLOAD_SLOT_WAIT_SECONDS/);
  });
});
