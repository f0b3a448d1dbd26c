import 'server-only';
import sizes from '@/assets/icons.json';
import { dirOf, type Locale } from '@/lib/i18n/locales';

/** The two installable apps: the file-sharing console and the administrator's. */
export type AppName = 'files' | 'htmls';

/** Header and page colours of the consoles (Tailwind white/zinc-50 and zinc-900/zinc-950). */
export const THEME = {
  light: { theme: '#ffffff', background: '#fafafa' },
  dark: { theme: '#18181b', background: '#09090b' },
} as const;

/** The share sheet posts here; the service worker receives it (app/files/share-target without one). */
const SHARE_TARGET_ACTION = '/files/share-target';

/** The /files phone layout's tabs; the hash opens one (app/files/_components/files-app.tsx). */
const FILES_TABS = [
  { tab: 'upload', hash: '' },
  { tab: 'shares', hash: '#shares' },
  { tab: 'settings', hash: '#settings' },
] as const;

/** What a person reads of an app, in the request's language (messages: manifest.*, files.tabs.*). */
export interface ManifestWords {
  name: string;
  /** Under the icon; /files keeps the product's name. */
  shortName?: string;
  description: string;
  /** /files: the shortcuts' names, its phone layout's tabs. */
  tabs?: Record<(typeof FILES_TABS)[number]['tab'], string>;
}

function webAppManifest(app: AppName, locale: Locale, words: ManifestWords) {
  const scope = `/${app}`;
  return {
    id: scope,
    name: words.name,
    short_name: words.shortName ?? 'htmls',
    description: words.description,
    start_url: scope,
    scope,
    display: 'standalone',
    lang: locale,
    dir: dirOf(locale),
    theme_color: THEME.light.theme,
    background_color: THEME.light.background,
    // Chromium's proposal for dark-mode colours; browsers without it keep the light ones and
    // the pages' media-dependent theme-color meta tags.
    user_preferences: { color_scheme_dark: { theme_color: THEME.dark.theme, background_color: THEME.dark.background } },
    categories: ['productivity', 'utilities'],
    icons: [
      { src: '/icons/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
      ...sizes.any.filter((s) => s >= 48).map((s) => ({ src: `/icons/icon-${s}.png`, sizes: `${s}x${s}`, type: 'image/png', purpose: 'any' })),
      ...sizes.maskable.map((s) => ({ src: `/icons/maskable-${s}.png`, sizes: `${s}x${s}`, type: 'image/png', purpose: 'maskable' })),
    ],
    ...(app === 'files'
      ? {
          share_target: {
            action: SHARE_TARGET_ACTION,
            method: 'POST',
            enctype: 'multipart/form-data',
            params: { title: 'title', text: 'text', url: 'url', files: [{ name: 'files', accept: ['*/*'] }] },
          },
          // The app icon's menu (long press, right click): straight to a tab of the phone layout.
          shortcuts: FILES_TABS.map(({ tab, hash }) => ({
            name: words.tabs?.[tab] ?? tab,
            url: `${scope}${hash}`,
            icons: [{ src: '/icons/icon-96.png', sizes: '96x96', type: 'image/png' }],
          })),
        }
      : {}),
  };
}

/**
 * An app's manifest in the request's language (the route handler chooses it as the pages do).
 * One URL, a language per visitor: kept by the browser only (private), and by the headers it
 * varies on — a shared cache must not hand one visitor's language to the next.
 */
export function manifestResponse(app: AppName, locale: Locale, words: ManifestWords): Response {
  return new Response(JSON.stringify(webAppManifest(app, locale, words)), {
    headers: { 'Content-Type': 'application/manifest+json; charset=utf-8', 'Cache-Control': 'private, max-age=3600', Vary: 'Accept-Language, Cookie' },
  });
}
