'use client';

import { useState } from 'react';
import { useRouter } from 'next/navigation';
import { LoadMore, SearchBox } from '@/app/_components/paging';
import { Button, ErrorText } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { usePagedList, useSettled } from '@/lib/client/use-paged-list';
import { ChangeTokenForm } from './change-token-form';
import { ProjectCard } from './project-card';
import { UploadSite } from './upload-site';

export function AdminConsole({ hostedBase, sandboxed }: { hostedBase: string | null; sandboxed: boolean }) {
  const router = useRouter();
  const [filter, setFilter] = useState('');
  const q = useSettled(filter);
  // A page at a time, searched on the server (slug or note); a card fetches its files when opened.
  const list = usePagedList('listProjects', { q });
  const projects = list.entries;
  const load = list.reload;

  async function logout() {
    await callOperation('logout').catch(() => {});
    router.refresh();
  }

  return (
    <div className="min-h-screen">
      <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
        <div className="mx-auto flex max-w-5xl items-center justify-between px-4 py-3">
          <h1 className="text-lg font-semibold">htmls · hosting</h1>
          <div className="flex items-center gap-2">
            <a href="/" className="text-sm text-zinc-600 hover:underline dark:text-zinc-400">
              Public directory
            </a>
            <Button variant="ghost" onClick={logout}>
              Sign out
            </Button>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-5xl space-y-6 px-4 py-6">
        {sandboxed ? (
          <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200">
            Hosted sites are served on this origin inside a CSP sandbox (HOSTED_PORT=0 without HOSTED_ORIGIN): their own fetch calls, module
            scripts, localStorage and the assets of password-protected sites do not work. Set HOSTED_ORIGIN, or leave HOSTED_PORT unset so
            sites get their own origin.
          </p>
        ) : null}
        <UploadSite hostedBase={hostedBase} onDone={load} />
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
                <ProjectCard key={p.slug} project={p} hostedBase={hostedBase} onChanged={load} />
              ))}
            </ul>
          )}
          <LoadMore hasMore={list.hasMore} loading={list.loading} onMore={() => void list.loadMore()} label="Load more projects" />
        </section>
        <ChangeTokenForm />
      </main>
    </div>
  );
}
