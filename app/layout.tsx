import type { Metadata, Viewport } from 'next';
import { getLocale } from 'next-intl/server';
import { dirOf } from '@/lib/i18n/locales';
import sizes from '@/assets/icons.json';
import { THEME } from '@/lib/pwa/manifest';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'htmls', template: '%s · htmls' },
  description: 'Static site hosting and share links for large files',
  applicationName: 'htmls',
  // Generated from assets/icon.svg at build time (scripts/icons.mjs).
  icons: {
    icon: [
      { url: '/favicon.ico', sizes: '48x48' },
      { url: '/icons/icon.svg', type: 'image/svg+xml' },
    ],
    apple: sizes.apple.map((s) => ({ url: s === 180 ? '/icons/apple-touch-icon.png' : `/icons/apple-touch-icon-${s}.png`, sizes: `${s}x${s}` })),
  },
  appleWebApp: { capable: true, title: 'htmls', statusBarStyle: 'default' },
};

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  viewportFit: 'cover',
  colorScheme: 'light dark',
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: THEME.light.theme },
    { media: '(prefers-color-scheme: dark)', color: THEME.dark.theme },
  ],
};

/** The request's language (i18n/request.ts) and its direction: Arabic reads right to left. */
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const locale = await getLocale();
  return (
    <html lang={locale} dir={dirOf(locale)}>
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}
