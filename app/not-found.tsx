import type { Metadata } from 'next';
import { getLocale, getTranslations } from 'next-intl/server';
import { backArrow } from '@/lib/i18n/locales';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('guest');
  return { title: t('errors.not_found.heading'), robots: { index: false } };
}

/** Next's 404 in the guest pages' layout (lib/http/guest-page.ts draws the same card in plain HTML). */
export default async function NotFound() {
  const [t, locale] = await Promise.all([getTranslations('guest'), getLocale()]);
  return (
    <main className="grid min-h-dvh place-items-center p-4">
      <div className="w-full max-w-[26rem] rounded-2xl border border-zinc-200 bg-white p-6 shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
        <div aria-hidden className="mb-4 grid size-11 place-items-center rounded-xl bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
          <svg viewBox="0 0 24 24" className="size-6 fill-none stroke-current [stroke-linecap:round] [stroke-linejoin:round] [stroke-width:2]">
            <circle cx="11" cy="11" r="7" />
            <path d="m20 20-4-4M9 9l4 4M13 9l-4 4" />
          </svg>
        </div>
        <h1 className="mb-2 text-xl font-semibold">{t('errors.not_found.heading')}</h1>
        <p className="text-subtle">{t('errors.not_found.text')}</p>
        <p className="mt-5 border-t border-zinc-200 pt-4 text-sm dark:border-zinc-800">
          <a href="/" className="inline-flex min-h-11 items-center font-semibold text-indigo-700 underline-offset-4 dark:text-indigo-300">
            {backArrow(locale)} {t('home')}
          </a>
        </p>
      </div>
    </main>
  );
}
