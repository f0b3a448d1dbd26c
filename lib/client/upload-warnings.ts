import type { ResponseOf } from '../contract/operations';

export type UploadWarning = ResponseOf<'uploadSite'>['warnings'][number];

/** One sentence of a warning: a key of the `sites` messages and its values (the tags `<ltr>` and `<code>` are the page's). */
export interface WarningSentence {
  key: `warnings.${'root_paths' | 'referrer_off' | 'root_service_worker' | 'root_router' | 'ownOrigin' | 'ownOriginLocal'}`;
  values: Record<string, string>;
}

/** Code, not words: the same in every language. */
const RELATIVE_BASE = "base: './'";
const ROUTER_BASENAME = 'createBrowserRouter(routes, { basename: import.meta.env.BASE_URL })';

/**
 * An upload warning in the reader's language, from its parts (lib/hosting/build-check.ts): what
 * will fail, then what to change for an origin per project on this server. Null for a code this
 * console does not know: it shows the server's English `message` instead.
 */
export function warningSentences(w: UploadWarning): WarningSentence[] | null {
  const code = w.code as string;
  const own = w.own_origin;
  const at = { file: w.file, refFile: w.root_ref.file, path: w.root_ref.path, base: w.base, relativeBase: RELATIVE_BASE };
  // i18n-keys: sites.warnings.*
  const ownOrigin: WarningSentence[] = [
    { key: 'warnings.ownOrigin', values: { dns: own.wildcard_dns, setting: own.hosted_origin } },
    ...(own.local_console && own.local_site ? [{ key: 'warnings.ownOriginLocal' as const, values: { console: own.local_console, site: own.local_site } }] : []),
  ];
  switch (code) {
    case 'root_paths':
      return [{ key: 'warnings.root_paths', values: { ...at, sandbox: 'HOSTED_PORT=0', originSetting: 'HOSTED_ORIGIN' } }];
    case 'referrer_off':
      return [{ key: 'warnings.referrer_off', values: { ...at, meta: '<meta name="referrer">' } }, ...ownOrigin];
    case 'root_service_worker':
      return [{ key: 'warnings.root_service_worker', values: at }, ...ownOrigin];
    case 'root_router':
      return [{ key: 'warnings.root_router', values: { ...at, routerBase: `base: '${w.base}'`, basename: ROUTER_BASENAME } }, ...ownOrigin];
    default:
      return null;
  }
}
