'use client';

import { useState } from 'react';
import { LoadMore, SearchBox } from '@/app/_components/paging';
import { Button, ErrorText } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { usePagedList, useSettled } from '@/lib/client/use-paged-list';
import { onAsync } from '@/lib/client/on-async';
import { AuditLog } from './audit-log';
import { ChangeTokenForm } from './change-token-form';
import { ProjectCard } from './project-card';
import { UploadSite } from './upload-site';

export function AdminConsole({ hostedBase, onSignedOut }: { hostedBase: string | null; onSignedOut: () => void }) {
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
        <div className="mx-auto flex max-w-5xl items-center justify-between px-4 py-3">
          <h1 className="text-lg font-semibold">htmls · hosting</h1>
          <div className="flex items-center gap-2">
            <a href="/files" className="text-sm text-zinc-600 hover:underline dark:text-zinc-400">
              Files
            </a>
            <a href="/" className="text-sm text-zinc-600 hover:underline dark:text-zinc-400">
              Public directory
            </a>
            <Button variant="ghost" onClick={onAsync(logout)}>
              Sign out
            </Button>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-5xl space-y-6 px-4 py-6">
        <UploadSite hostedBase={hostedBase} onDone={onAsync(load)} />
        <section aria-labelledby="projects-heading">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="projects-heading" className="text-base font-semibold">
              Projects
            </h2>
            {projects && (projects.length > 0 || filter) ? <SearchBox value={filter} onChange={setFilter} label="Filter projects" placeholder="Filter by name or note" /> : null}
          </div>
          <ErrorText>{list.error}</ErrorText>
          {projects === null ? (
            <p className="mt-2 text-sm text-muted">Loading…</p>
          ) : projects.length === 0 && filter ? (
            <p className="mt-2 text-sm text-muted">No projects match “{filter}”.</p>
          ) : projects.length === 0 ? (
            <p className="mt-2 rounded-lg border border-dashed border-zinc-300 p-6 text-center text-sm text-muted dark:border-zinc-700">
              No projects yet. Drop a folder above to publish your first site.
            </p>
          ) : (
            <ul className="mt-3 space-y-3">
              {projects.map((p) => (
                <ProjectCard key={p.slug} project={p} hostedBase={hostedBase} onChanged={onAsync(load)} />
              ))}
            </ul>
          )}
          <LoadMore hasMore={list.hasMore} loading={list.loading} onMore={() => void list.loadMore()} label="Load more projects" />
        </section>
        <ChangeTokenForm />
        <AuditLog />
        <details className="text-sm text-muted">
          <summary className="cursor-pointer">What a hosted site can still do</summary>
          <p className="mt-2 max-w-3xl">
            Hosted sites run on their own origin: they cannot read this console, its storage or the API as you, and a session
            cookie alone no longer signs this console in. But on a same-site origin — the default second port, or a sub-domain
            of this host name — a site can still set and delete the cookies this host receives: it can sign you out (push your
            session out of the browser&apos;s cookie jar) and clear other projects&apos; password unlocks; projects that share one
            hosted origin also share its storage. Publish only sites you trust, or set HOSTED_ORIGIN to another registrable
            domain (another site entirely) to rule this out.
          </p>
        </details>
      </main>
    </div>
  );
}
