import 'server-only';
import sizes from '@/assets/icons.json';

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
  { name: 'Upload', hash: '' },
  { name: 'Shares', hash: '#shares' },
  { name: 'Settings', hash: '#settings' },
];

const APPS = {
  files: {
    name: 'htmls — share files',
    short_name: 'htmls',
    description: 'Upload files and folders, get a link to share, and manage your shares.',
  },
  htmls: {
    name: 'htmls — administration',
    short_name: 'htmls admin',
    description: 'Publish static sites and manage members, quotas and settings.',
  },
} as const;

function webAppManifest(app: AppName) {
  const scope = `/${app}`;
  return {
    id: scope,
    ...APPS[app],
    start_url: scope,
    scope,
    display: 'standalone',
    lang: 'en',
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
          shortcuts: FILES_TABS.map(({ name, hash }) => ({
            name,
            url: `${scope}${hash}`,
            icons: [{ src: '/icons/icon-96.png', sizes: '96x96', type: 'image/png' }],
          })),
        }
      : {}),
  };
}

export function manifestResponse(app: AppName): Response {
  return new Response(JSON.stringify(webAppManifest(app)), {
    headers: { 'Content-Type': 'application/manifest+json; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  });
}
