import { createTranslator } from 'use-intl/core';
import { describe, expect, it } from 'vitest';
import ar from '../../messages/ar.json' with { type: 'json' };
import de from '../../messages/de.json' with { type: 'json' };
import en from '../../messages/en.json' with { type: 'json' };
import { buildWarnings, newBuildFacts, noteBuildFile } from '../hosting/build-check';
import type { Locale } from '../i18n/locales';
import { contentTypeFor } from '../mime';
import { warningSentences, type UploadWarning } from './upload-warnings';

/** The default hosted port, its console reached by a name other than localhost: one origin shared by every site. */
const PORT = { hosted: { mode: 'port', port: 3001 }, template: 'http://box.lan:3001', port: 3000 } as const;
const SANDBOX = { hosted: { mode: 'sandbox' }, template: null, port: 3000 } as const;

function warningsOf(files: Record<string, string>, place: Parameters<typeof buildWarnings>[1] = PORT): UploadWarning[] {
  const facts = newBuildFacts();
  for (const [p, body] of Object.entries(files)) noteBuildFile(facts, p, contentTypeFor(p), Buffer.from(body));
  return buildWarnings(facts, place, 'demo');
}

/** A warning as the console writes it, its tags as plain text marked [ltr:…] and `…`. */
function text(w: UploadWarning, messages: typeof en, locale: Locale): string {
  const t = createTranslator({ locale, messages, namespace: 'sites' });
  const tags = { ltr: (c: string) => `[${c}]`, code: (c: string) => `\`${c}\``, bdi: (c: string) => c };
  return warningSentences(w)!
    .map((s) => t.markup(s.key, { ...s.values, ...tags }))
    .join(' ');
}

const ROUTER = { 'index.html': '<script type="module" src="/assets/index.js"></script>', 'assets/index.js': 'history.pushState(null, "", "/about")' };

describe("upload warnings in the reader's language (issue 40)", () => {
  it('a client-side router built for the root: the German sentence names the file, the base and what to set', () => {
    const [w] = warningsOf(ROUTER);
    expect(w.code).toBe('root_router');
    // The server's English sentence stays for the CLI and the API.
    expect(w.message).toContain("base '/p/demo/'");
    expect(text(w, de as typeof en, 'de')).toBe(
      '[assets/index.js] ändert die Adresse selbst (ein clientseitiger Router), und der Build erwartet die Wurzel eines Origins ([index.html] lädt [/assets/index.js]). ' +
        'Hier teilen sich Websites einen Origin und diese liegt unter [/p/demo/], daher passen von / aus geschriebene Routen nicht und sie zeigt ihre 404-Seite. ' +
        "Bauen Sie sie mit `base: '/p/demo/'` und geben Sie dem Router diesen basename (`createBrowserRouter(routes, { basename: import.meta.env.BASE_URL })`). " +
        'Oder geben Sie jeder Website einen eigenen Origin: Richten Sie den Wildcard-DNS-Namen [*.sites.example.com] und sein TLS-Zertifikat auf diesen Server und setzen Sie `HOSTED_ORIGIN=https://{slug}.sites.example.com`. ' +
        'Auf dem Rechner des Servers selbst können Sie stattdessen die Konsole unter [http://localhost:3000/htmls] öffnen, wo jede Website einen eigenen Origin hat (diese: [http://demo.localhost:3001]).',
    );
  });

  it('every code the server sends has its words in English, German and Arabic, with no English left in the others', () => {
    const all = [
      ...warningsOf(ROUTER),
      ...warningsOf({ 'index.html': '<meta name="referrer" content="no-referrer"><script src="/a.js"></script>', 'sw.js': "navigator.serviceWorker.register('/sw.js')" }),
      ...warningsOf(ROUTER, SANDBOX),
    ];
    expect(all.map((w) => w.code).sort()).toEqual(['referrer_off', 'root_paths', 'root_router', 'root_service_worker']);
    for (const w of all) {
      expect(text(w, en, 'en')).toContain(w.file);
      for (const [locale, messages] of [['de', de], ['ar', ar]] as const) {
        const said = text(w, messages as typeof en, locale);
        expect(said, `${w.code} in ${locale}`).toContain(`[${w.file}]`);
        expect(said).not.toMatch(/from the root|will fail|origin of its own/);
      }
    }
  });

  it("a code this console does not know: no sentence of its own (the server's is shown)", () => {
    const [w] = warningsOf(ROUTER);
    expect(warningSentences({ ...w, code: 'something_new' as UploadWarning['code'] })).toBeNull();
  });
});
