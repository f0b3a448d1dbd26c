import Link from 'next/link';
import { getLocale, getTranslations } from 'next-intl/server';
import { LanguagePicker } from '@/app/_components/language-picker';
import { LockIcon } from '@/app/_components/icons';
import { server } from '@/lib/http/next-link';
import { backArrow, forwardArrow } from '@/lib/i18n/locales';

const PER_PAGE = 50;

type Search = Promise<{ q?: string | string[]; page?: string | string[] }>;

export default async function DirectoryPage({ searchParams }: { searchParams: Search }) {
  const sp = await searchParams;
  const q = (Array.isArray(sp.q) ? sp.q[0] : sp.q)?.trim().slice(0, 100) ?? '';
  const page = Math.min(10_000, Math.max(1, Number.parseInt(String(sp.page ?? '1'), 10) || 1));
  const { projects, hasMore } = await server().pages.directoryPage({ q: q || undefined, page, perPage: PER_PAGE });
  const [t, locale] = await Promise.all([getTranslations('directory'), getLocale()]);
  const picker = await getTranslations('picker');
  const href = (p: number) => `/?${new URLSearchParams({ ...(q ? { q } : {}), page: String(p) })}`;

  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">{t('title')}</h1>
          <p className="text-sm text-muted">{t('subtitle')}</p>
        </div>
        <form role="search" action="/" className="flex gap-2">
          <label className="sr-only" htmlFor="q">
            {t('searchLabel')}
          </label>
          <input
            id="q"
            name="q"
            defaultValue={q}
            placeholder={t('searchPlaceholder')}
            className="w-56 rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
          />
          <button className="rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white hover:bg-indigo-500">{t('search')}</button>
        </form>
      </header>

      {projects.length === 0 ? (
        <p className="mt-10 rounded-xl border border-dashed border-zinc-300 p-8 text-center text-sm text-muted dark:border-zinc-700">
          {q ? t('noMatch', { q }) : t('empty')}
        </p>
      ) : (
        <ul className="mt-8 divide-y divide-zinc-200 rounded-xl border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
          {projects.map((p) => (
            <li key={p.slug}>
              <a href={`/p/${encodeURIComponent(p.slug)}`} className="block px-4 py-3 hover:bg-zinc-50 dark:hover:bg-zinc-800">
                <span className="flex items-center gap-2">
                  <span className="font-mono text-sm font-medium text-indigo-700 dark:text-indigo-400">{p.slug}</span>
                  {/* A visitor learns before the click that a password is asked. */}
                  {p.locked ? (
                    <span className="inline-flex items-center gap-1 text-xs text-muted" data-testid="locked">
                      <LockIcon /> {t('locked')}
                    </span>
                  ) : null}
                </span>
                {p.note ? <span className="mt-0.5 block text-sm text-subtle">{p.note}</span> : null}
              </a>
            </li>
          ))}
        </ul>
      )}

      <nav aria-label={t('pages')} className="mt-6 flex justify-between text-sm">
        {page > 1 ? <Link href={href(page - 1)}>
            {backArrow(locale)} {t('newer')}
          </Link> : <span />}
        {hasMore ? <Link href={href(page + 1)}>
            {t('older')} {forwardArrow(locale)}
          </Link> : <span />}
      </nav>

      <footer className="mt-16 flex flex-wrap items-center gap-4 text-xs text-muted">
        <a href="/files">{t('shareFiles')}</a>
        <a href="/user-guide.html">{t('userGuide')}</a>
        <a href="/architecture.html">{t('architecture')}</a>
        <a href="/privacy-policy.html">{t('privacy')}</a>
        <LanguagePicker locale={locale} label={picker('label')} className="ms-auto" />
      </footer>
    </main>
  );
}
