import { createRequire } from 'node:module';
import path from 'node:path';
import createNextIntlPlugin from 'next-intl/plugin';
import unfurlers from './lib/shares/unfurlers.json' with { type: 'json' };

// next-intl without i18n routing: its request configuration reads the language per request.
const withNextIntl = createNextIntlPlugin('./i18n/request.ts');
// Its messages reach Next precompiled (lib/i18n/messages.ts compiledMessagesOf): pages format
// them with use-intl's format-only build, and the browser loads no ICU parser.
const formatOnly = `./${path.relative(import.meta.dirname, createRequire(import.meta.url).resolve('use-intl/format-message/format-only'))}`;

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Compression belongs to the reverse proxy; Next would gzip every response on the CPU we
  // need for serving (STACK.md: public/ drops from ~13,000 to ~1,250 req/s with gzip).
  compress: false,
  poweredByHeader: false,
  // The release artifact starts from Next's traced server files and node_modules
  // (scripts/release.mjs adds ours): production needs no npm install.
  output: 'standalone',
  outputFileTracingRoot: import.meta.dirname,
  // Image optimization is off (images.unoptimized), so sharp and its libvips (~20 MB) never load.
  outputFileTracingExcludes: { '*': ['node_modules/sharp/**', 'node_modules/@img/**'] },
  reactStrictMode: true,
  turbopack: { resolveAlias: { 'use-intl/format-message': formatOnly } },
  // Link unfurlers read only <head>: the share page's card tags (generateMetadata) must be in it,
  // not streamed into the body. The one list, lib/shares/unfurlers.json, also decides downloads.
  htmlLimitedBots: new RegExp(unfurlers.join('|'), 'i'),
  // Nothing uses next/image; left on, /_next/image would transcode any public image for anyone.
  images: { unoptimized: true },
  // Tests and scripts are type-checked by `npm run typecheck`, not by every build.
  typescript: { tsconfigPath: 'tsconfig.build.json' },
  // Native, wasm or Node-stream packages stay outside the bundle: PGlite loads its wasm from
  // its own folder, and server.ts shares the very same module instances with route handlers.
  serverExternalPackages: [
    'ajv',
    'ajv-formats',
    '@electric-sql/pglite',
    'postgres',
    'drizzle-orm',
    '@aws-sdk/client-s3',
    '@aws-sdk/s3-request-presigner',
    'busboy',
    'sharp',
  ],
  // Browsers ask for these at the root whatever the page says; the files are generated into
  // public/icons/ from assets/icon.svg (scripts/icons.mjs).
  async rewrites() {
    return [
      { source: '/favicon.ico', destination: '/icons/favicon.ico' },
      { source: '/apple-touch-icon.png', destination: '/icons/apple-touch-icon.png' },
      { source: '/apple-touch-icon-precomposed.png', destination: '/icons/apple-touch-icon.png' },
    ];
  },
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
        ],
      },
    ];
  },
};

export default withNextIntl(nextConfig);
