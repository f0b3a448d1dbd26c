import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, useFileServer } from './support/file-server';
import { call } from './support/http';
import { site, uploadSite } from './support/hosting';
import { createMember, type Member } from './support/members';
import { uploadShare } from './support/shares';

// Next's pages: the request page, the share page and the public directory (issue 40).
useFileServer({}, { pages: true });

let owner: Member;
let open: string;
let locked: string;
let share: string;
let limitedShare: string;
let lockedShare: string;

const page = (path: string, headers: Record<string, string>) => call('GET', path, { headers: { Accept: 'text/html', ...headers } });
const htmlTag = (text: string) => /<html[^>]*>/.exec(text)?.[0] ?? '';

beforeAll(async () => {
  owner = await createMember();
  const a = await call('POST', '/api/requests', { token: owner.token, body: { note: '', max_files: 3 } });
  expect(a.status).toBe(201);
  open = a.json.request.id;
  const b = await call('POST', '/api/requests', { token: owner.token, body: { password: 'open sesame 42' } });
  expect(b.status).toBe(201);
  locked = b.json.request.id;
  const files = { 'a.txt': Buffer.from('alpha'), 'b.txt': Buffer.from('beta'), 'docs/c.txt': Buffer.from('gamma') };
  share = (await uploadShare(owner.token, files)).share.id;
  limitedShare = (await uploadShare(owner.token, { 'report.pdf': Buffer.from('%PDF-1.4') }, { max_downloads: 2 })).share.id;
  lockedShare = (await uploadShare(owner.token, { 'secret.txt': Buffer.from('secret') }, { password: 'open sesame 42' })).share.id;
});

/** The page's text as a reader sees it: React's separators between adjacent text parts taken out. */
const text = (html: string) => html.replace(/<!-- -->/g, '');

describe('a member’s own language setting comes first (issue 40)', () => {
  it('/files for a signed-in member whose language is German: German, over the cookie and Accept-Language; cleared, the cookie again', async () => {
    const member = await createMember();
    expect((await call('PATCH', '/api/auth/profile', { token: member.token, body: { locale: 'de' } })).status).toBe(200);
    const cookie = `htmls_locale=ja; htmls_user_session=${member.token}`;
    const r = await page('/files', { 'Accept-Language': 'ar', Cookie: cookie });
    expect(r.status).toBe(200);
    expect(htmlTag(r.text)).toContain('lang="de"');
    // The console gets its Settings namespace in that language, and no other language's.
    expect(r.text).toContain('Wie im Browser');
    expect(r.text).not.toContain('ブラウザーの設定');
    // A guest page follows the member's setting too; a stranger's session token counts for nothing.
    expect(htmlTag((await page(`/r/${open}`, { Cookie: cookie })).text)).toContain('lang="de"');
    expect(htmlTag((await page('/files', { Cookie: 'htmls_locale=ja; htmls_user_session=not-a-session' })).text)).toContain('lang="ja"');

    expect((await call('PATCH', '/api/auth/profile', { token: member.token, body: { locale: null } })).status).toBe(200);
    await expect.poll(async () => htmlTag((await page('/files', { 'Accept-Language': 'ar', Cookie: cookie })).text)).toContain('lang="ja"');
  });
});

describe('the guest pages speak the guest’s language (no locale in the URL)', () => {
  it('/r/<id> with Accept-Language: de — German, left to right, German plurals and sizes', async () => {
    const r = await page(`/r/${open}`, { 'Accept-Language': 'de-DE,de;q=0.9,en;q=0.5' });
    expect(r.status).toBe(200);
    expect(htmlTag(r.text)).toContain('lang="de"');
    expect(htmlTag(r.text)).toContain('dir="ltr"');
    expect(r.text).toContain('Dateien an');
    expect(r.text).toContain('Bis zu 3 Dateien');
    expect(r.text).toContain('Dateien auswählen');
    expect(r.text).not.toContain('Choose files');
    // One language reaches the browser, and only this page's namespace of it.
    expect(r.text).not.toContain('Choisir des fichiers');
    expect(r.text).not.toContain('Statische Websites');
  });

  it('/r/<id> with Accept-Language: ar — Arabic, right to left', async () => {
    const r = await page(`/r/${open}`, { 'Accept-Language': 'ar-SA' });
    expect(r.status).toBe(200);
    expect(htmlTag(r.text)).toContain('lang="ar"');
    expect(htmlTag(r.text)).toContain('dir="rtl"');
    expect(r.text).toContain('اختيار ملفات');
    expect(r.text).toContain('حتى 3 ملفات');
  });

  it('the picker’s cookie wins over Accept-Language; an unknown cookie value is ignored', async () => {
    const r = await page(`/r/${open}`, { 'Accept-Language': 'ar', Cookie: 'htmls_locale=ja' });
    expect(htmlTag(r.text)).toContain('lang="ja"');
    expect(htmlTag(r.text)).toContain('dir="ltr"');
    expect(r.text).toContain('ファイルを選択');
    expect(r.text).toContain('data-testid="language-picker"');
    const bad = await page(`/r/${open}`, { 'Accept-Language': 'fr-CA', Cookie: 'htmls_locale=xx' });
    expect(htmlTag(bad.text)).toContain('lang="fr"');
  });

  it('no language of ours asked for: DEFAULT_LOCALE (English here)', async () => {
    const r = await page(`/r/${open}`, { 'Accept-Language': 'sw, zh-TW;q=0.8' });
    expect(htmlTag(r.text)).toContain('lang="en"');
    expect(r.text).toContain('Choose files');
  });

  it('/ — the public directory in German and in Arabic', async () => {
    const de = await page('/', { 'Accept-Language': 'de' });
    expect(de.status).toBe(200);
    expect(htmlTag(de.text)).toContain('lang="de"');
    expect(de.text).toContain('Websites durchsuchen');
    const ar = await page('/', { Cookie: 'htmls_locale=ar' });
    expect(htmlTag(ar.text)).toContain('dir="rtl"');
    expect(ar.text).toContain('البحث في المواقع');
  });

  it('/files with the picker’s German cookie: German, its title, and only the console’s messages of one language', async () => {
    const r = await page('/files', { 'Accept-Language': 'en', Cookie: 'htmls_locale=de' });
    expect(r.status).toBe(200);
    expect(htmlTag(r.text)).toContain('lang="de"');
    expect(r.text).toContain('<title>Dateien · htmls</title>');
    // The console's namespaces reach the browser (the sign-in form, the upload card, the error codes)…
    expect(r.text).toContain('Benutzername oder Passwort ist falsch.');
    expect(r.text).toContain('Hochladen und Link erstellen');
    expect(r.text).toContain('Ihre Sitzung ist abgelaufen. Melden Sie sich erneut an.');
    // …and no other page's, nor another language.
    expect(r.text).not.toContain('Websites durchsuchen');
    expect(r.text).not.toContain('Upload and create link');
  });

  it('/files in Arabic: right to left', async () => {
    const r = await page('/files', { 'Accept-Language': 'ar-EG' });
    expect(htmlTag(r.text)).toContain('dir="rtl"');
    expect(r.text).toContain('<title>الملفات · htmls</title>');
    expect(r.text).toContain('ارفع وأنشئ الرابط');
  });

  it('the request’s password page (the server’s own HTML) in Arabic, right to left, and a wrong password in German', async () => {
    const r = await page(`/r/${locked}`, { 'Accept-Language': 'ar' });
    expect(r.status).toBe(401);
    expect(htmlTag(r.text)).toBe('<html lang="ar" dir="rtl">');
    expect(r.text).toContain('رابط الرفع هذا محمي');
    expect(r.text).toContain('→ الصفحة الرئيسية');
    const wrong = await call('POST', `/r/${locked}/unlock`, {
      headers: { 'Accept-Language': 'de', 'Content-Type': 'application/x-www-form-urlencoded', Origin: baseUrl() },
      raw: 'password=nope',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Falsches Passwort');
    expect(wrong.text).toContain('Dieser Upload-Link ist geschützt');
  });

  it('/f/<id> with Accept-Language: de — German, left to right, its title, plurals and the picker; only the share’s messages', async () => {
    const r = await page(`/f/${share}`, { 'Accept-Language': 'de-CH,de;q=0.9' });
    expect(r.status).toBe(200);
    const html = text(r.text);
    expect(htmlTag(html)).toContain('lang="de"');
    expect(htmlTag(html)).toContain('dir="ltr"');
    // A share without a note is titled by its files; the first name kept in its own direction.
    expect(html).toMatch(/<h1[^>]*><bdi>a\.txt<\/bdi> und 2 weitere<\/h1>/);
    expect(html).toContain('<title>a.txt und 2 weitere · htmls</title>');
    expect(html).toContain('htmls · für Sie freigegeben');
    expect(html).toMatch(/Alle herunterladen \(3 Dateien, 14 Byte\)/);
    expect(html).toMatch(/Ordner herunterladen \(1 Datei, 5 Byte\)/);
    expect(html).toContain('aria-label="a.txt herunterladen"');
    expect(html).not.toContain('Download all');
    expect(html).toContain('data-testid="language-picker"');
    // One language reaches the browser, and only this page's namespace of it.
    expect(html).not.toContain('Tout télécharger');
    expect(html).not.toContain('Dateien auswählen');
  });

  it('/f/<id> in Arabic (the picker’s cookie) — right to left, Arabic plurals, names isolated', async () => {
    const r = await page(`/f/${share}`, { 'Accept-Language': 'en', Cookie: 'htmls_locale=ar' });
    expect(r.status).toBe(200);
    const html = text(r.text);
    expect(htmlTag(html)).toContain('lang="ar"');
    expect(htmlTag(html)).toContain('dir="rtl"');
    expect(html).toMatch(/<h1[^>]*><bdi>a\.txt<\/bdi> وملفان آخران<\/h1>/);
    expect(html).toContain('تنزيل الكل (3 ملفات، ');
    expect(html).toContain('<bdi>a.txt</bdi>');
    const limited = text((await page(`/f/${limitedShare}`, { 'Accept-Language': 'ar-EG' })).text);
    expect(limited).toContain('يتبقى تنزيلان');
    expect(limited).toContain('تنزيل الكل (ملف واحد، ');
  });

  it('the share’s password page in German, by Accept-Language and by the picker’s cookie; a wrong password too', async () => {
    const asked: Record<string, string>[] = [{ 'Accept-Language': 'de-DE,de;q=0.9' }, { 'Accept-Language': 'en-US', Cookie: 'htmls_locale=de' }];
    for (const headers of asked) {
      const r = await page(`/f/${lockedShare}`, headers);
      expect(r.status).toBe(401);
      expect(htmlTag(r.text)).toBe('<html lang="de" dir="ltr">');
      expect(r.text).toContain('<title>Diese Freigabe · Passwort erforderlich</title>');
      expect(r.text).toContain('<p>Diese Freigabe ist geschützt.');
      expect(r.text).toContain('>Entsperren</button>');
      expect(r.text).not.toContain('secret');
    }
    // An item's address meets the same gate, in the same language.
    const item = await page(`/f/${lockedShare}/secret.txt`, { 'Accept-Language': 'de' });
    expect(item.status).toBe(401);
    expect(item.text).toContain('Diese Freigabe ist geschützt.');
    const wrong = await call('POST', `/f/${lockedShare}/unlock`, {
      headers: { Cookie: 'htmls_locale=de', 'Content-Type': 'application/x-www-form-urlencoded', Origin: baseUrl() },
      raw: 'password=nope',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Falsches Passwort');
    expect(wrong.text).toContain('Diese Freigabe ist geschützt.');
    // Without a language of ours: English, as before.
    const en = await page(`/f/${lockedShare}`, { 'Accept-Language': 'sw' });
    expect(en.text).toContain('<p>This shared link is protected.');
  });

  it('the offline page in the visitor’s language', async () => {
    const r = await page('/offline', { 'Accept-Language': 'uk' });
    expect(r.status).toBe(200);
    expect(htmlTag(r.text)).toContain('lang="uk"');
    expect(r.text).toContain('Ви офлайн');
  });

  it('an expired or missing link explained in the guest’s language', async () => {
    const r = await page('/r/doesnotexist', { 'Accept-Language': 'pt-PT' });
    expect(r.status).toBe(404);
    expect(htmlTag(r.text)).toContain('lang="pt-BR"');
    expect(r.text).toContain('Não há nada aqui');
  });

  it('a hosted project’s password page, on the hosted origin, in French; a wrong password in Korean', async () => {
    const r = await uploadSite({ 'index.html': '<p>secret page</p>' }, { password: 'open-sesame' });
    const slug = r.json.project.slug as string;
    const gate = await site('GET', `/p/${slug}/`, { headers: { Accept: 'text/html', 'Accept-Language': 'fr-FR,fr;q=0.9' } });
    expect(gate.status).toBe(401);
    expect(htmlTag(gate.text)).toBe('<html lang="fr" dir="ltr">');
    expect(gate.text).toContain(`/p/${slug} est protégé.`);
    expect(gate.text).toContain('>Déverrouiller</button>');
    expect(gate.text).not.toContain('secret page');
    const wrong = await site('POST', `/p/${slug}/unlock`, {
      headers: { 'Accept-Language': 'ko-KR' },
      raw: new URLSearchParams({ password: 'nope', next: `/p/${slug}/` }),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('비밀번호가 틀렸습니다');
  });
});

describe('the no-script pages’ language picker: a form posting to the origin’s /locale, no script', () => {
  const form = (fields: Record<string, string>) => ({ headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, raw: new URLSearchParams(fields), redirect: 'manual' as const });
  /** The picker form's action and its `next`, as the page writes them. */
  const pickerOf = (html: string) => ({
    action: /<form class="lang" method="post" action="([^"]*)">/.exec(html)?.[1],
    next: /<form class="lang"[^>]*>\n<input type="hidden" name="next" value="([^"]*)">/.exec(html)?.[1],
  });

  it('the share’s password page: its picker posts to /locale, which sets the cookie and comes back; the page is then German', async () => {
    const gate = await page(`/f/${lockedShare}`, { 'Accept-Language': 'en' });
    expect(gate.status).toBe(401);
    expect(gate.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect(gate.text).not.toContain('<script');
    expect(pickerOf(gate.text)).toEqual({ action: '/locale', next: `/f/${lockedShare}` });
    expect(gate.text).toContain('<option value="de" lang="de">Deutsch</option>');
    expect(gate.text).toContain('<option value="en" lang="en" selected>English</option>');

    const chosen = await call('POST', '/locale', form({ locale: 'de', next: `/f/${lockedShare}` }));
    expect(chosen.status).toBe(303);
    expect(chosen.headers.get('location')).toBe(`/f/${lockedShare}`);
    const cookie = chosen.cookies.find((c) => c.startsWith('htmls_locale='))!;
    expect(cookie).toMatch(/^htmls_locale=de; Path=\/; Max-Age=31536000; SameSite=Lax$/);
    // Not HttpOnly: the script picker of Next's pages writes the same cookie.
    const again = await page(`/f/${lockedShare}`, { 'Accept-Language': 'en', Cookie: 'htmls_locale=de' });
    expect(htmlTag(again.text)).toContain('lang="de"');
    expect(again.text).toContain('<option value="de" lang="de" selected>Deutsch</option>');
  });

  it('POST /locale refuses a target on another origin, an unknown language and a GET; without `next` it goes home', async () => {
    for (const next of ['//evil.example/', '/\\evil.example/', 'https://evil.example/', '/\t/evil.example', 'javascript:alert(1)', 'evil.example']) {
      const r = await call('POST', '/locale', { ...form({ locale: 'de', next }), headers: { ...form({}).headers, Accept: 'text/html' } });
      expect(r.status, next).toBe(400);
      expect(r.headers.get('location'), next).toBeNull();
      expect(r.cookies.some((c) => c.startsWith('htmls_locale=')), next).toBe(false);
    }
    expect((await call('POST', '/locale', form({ locale: 'xx', next: '/' }))).status).toBe(400);
    expect((await call('GET', '/locale', { headers: { Accept: 'text/html' } })).status).toBe(405);
    const home = await call('POST', '/locale', form({ locale: 'ar' }));
    expect(home.status).toBe(303);
    expect(home.headers.get('location')).toBe('/');
  });

  it('an error page and the offline page carry the picker; a missing link’s comes back to its own URL', async () => {
    const missing = await page('/f/doesnotexist/a.txt?x=1', { 'Accept-Language': 'de' });
    expect(missing.status).toBe(404);
    expect(pickerOf(missing.text)).toEqual({ action: '/locale', next: '/f/doesnotexist/a.txt?x=1' });
    expect(missing.text).toContain('>Ändern</button>');
    const offline = await page('/offline', { 'Accept-Language': 'ja' });
    expect(pickerOf(offline.text)).toEqual({ action: '/locale', next: undefined });
  });

  it('a hosted project’s password page: the picker posts on the hosted origin, to /p/<slug>/locale, whose cookie is that origin’s', async () => {
    const r = await uploadSite({ 'index.html': '<p>secret page</p>' }, { password: 'open-sesame' });
    const slug = r.json.project.slug as string;
    const gate = await site('GET', `/p/${slug}/docs/`, { headers: { Accept: 'text/html', 'Accept-Language': 'en' } });
    expect(gate.status).toBe(401);
    expect(pickerOf(gate.text)).toEqual({ action: `/p/${slug}/locale`, next: `/p/${slug}/docs/` });
    const chosen = await site('POST', `/p/${slug}/locale`, form({ locale: 'ko', next: `/p/${slug}/docs/` }));
    expect(chosen.status).toBe(303);
    expect(chosen.headers.get('location')).toBe(`/p/${slug}/docs/`);
    expect(chosen.cookies.find((c) => c.startsWith('htmls_locale='))).toMatch(/^htmls_locale=ko; Path=\//);
    const again = await site('GET', `/p/${slug}/docs/`, { headers: { Accept: 'text/html', Cookie: 'htmls_locale=ko' } });
    expect(htmlTag(again.text)).toContain('lang="ko"');
    expect((await site('POST', `/p/${slug}/locale`, form({ locale: 'ko', next: '//evil.example/' }))).status).toBe(400);
    // A project that does not exist: its 404 page has the picker too, and it works.
    const gone = await site('GET', '/p/no-such-project-here/', { headers: { Accept: 'text/html' } });
    expect(gone.status).toBe(404);
    expect(pickerOf(gone.text).action).toBe('/p/no-such-project-here/locale');
    expect((await site('POST', '/p/no-such-project-here/locale', form({ locale: 'de', next: '/p/no-such-project-here/' }))).status).toBe(303);
  });
});
