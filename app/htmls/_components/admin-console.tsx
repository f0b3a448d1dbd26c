'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useState } from 'react';
import { LanguagePicker } from '@/app/_components/language-picker';
import { LoadMore, SearchBox } from '@/app/_components/paging';
import { Button, codeTag, ErrorText } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { usePagedList, useSettled } from '@/lib/client/use-paged-list';
import { onAsync } from '@/lib/client/on-async';
import { AuditLog } from './audit-log';
import { ChangeTokenForm } from './change-token-form';
import { ProjectCard } from './project-card';
import { UploadSite } from './upload-site';

export function AdminConsole({ hostedBase, onSignedOut }: { hostedBase: string | null; onSignedOut: () => void }) {
  const t = useTranslations('htmls');
  const picker = useTranslations('picker');
  const locale = useLocale();
  const [filter, setFilter] = useState('');
  const q = useSettled(filter);
  // A page at a time, searched on the server (slug or note); a card fetches its files when opened.
  const list = usePagedList('listProjects', { q });
  const projects = list.entries;
  const load = list.reload;

  async function logout() {
    await callOperation('logout').catch(() => {});
    onSignedOut();
  }

  return (
    <div className="min-h-screen">
      <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3">
          <h1 className="text-lg font-semibold">{t('heading')}</h1>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <a href="/files" className="text-sm text-zinc-600 hover:underline dark:text-zinc-400">
              {t('files')}
            </a>
            <a href="/" className="text-sm text-zinc-600 hover:underline dark:text-zinc-400">
              {t('directory')}
            </a>
            {/* The Admin Token session has no profile: its language is the picker's cookie. */}
            <LanguagePicker locale={locale} label={picker('label')} />
            <Button variant="ghost" onClick={onAsync(logout)}>
              {t('signOut')}
            </Button>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-5xl space-y-6 px-4 py-6">
        <UploadSite hostedBase={hostedBase} onDone={onAsync(load)} />
        <section aria-labelledby="projects-heading">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="projects-heading" className="text-base font-semibold">
              {t('projects.heading')}
            </h2>
            {projects && (projects.length > 0 || filter) ? <SearchBox value={filter} onChange={setFilter} label={t('projects.filter')} placeholder={t('projects.filterPlaceholder')} /> : null}
          </div>
          <ErrorText>{list.error}</ErrorText>
          {projects === null ? (
            <p className="mt-2 text-sm text-muted">{t('projects.loading')}</p>
          ) : projects.length === 0 && filter ? (
            <p className="mt-2 text-sm text-muted">{t('projects.noMatch', { filter })}</p>
          ) : projects.length === 0 ? (
            <p className="mt-2 rounded-lg border border-dashed border-zinc-300 p-6 text-center text-sm text-muted dark:border-zinc-700">{t('projects.empty')}</p>
          ) : (
            <ul className="mt-3 space-y-3">
              {projects.map((p) => (
                <ProjectCard key={p.slug} project={p} hostedBase={hostedBase} onChanged={onAsync(load)} />
              ))}
            </ul>
          )}
          <LoadMore hasMore={list.hasMore} loading={list.loading} onMore={() => void list.loadMore()} label={t('projects.loadMore')} loadingLabel={t('projects.loading')} />
        </section>
        <ChangeTokenForm />
        <AuditLog />
        <details className="text-sm text-muted">
          <summary className="cursor-pointer">{t('caveat.summary')}</summary>
          <p className="mt-2 max-w-3xl">{t.rich('caveat.text', { originSetting: 'HOSTED_ORIGIN', code: codeTag })}</p>
        </details>
      </main>
    </div>
  );
}
