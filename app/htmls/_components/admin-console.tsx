'use client';

import { useState } from 'react';
import { Button, ErrorText } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { useApiData } from '@/lib/client/use-api-data';
import { ChangeTokenForm } from './change-token-form';
import { ProjectCard } from './project-card';
import { UploadSite } from './upload-site';

export function AdminConsole({ hostedBase, onSignedOut }: { hostedBase: string | null; onSignedOut: () => void }) {
  const { data, error, reload: load } = useApiData('listProjects');
  const projects = data?.projects ?? null;
  const [filter, setFilter] = useState('');

  async function logout() {
    await callOperation('logout').catch(() => {});
    onSignedOut();
  }

  const shown = (projects ?? []).filter((p) => !filter || p.slug.includes(filter.toLowerCase()) || p.note.toLowerCase().includes(filter.toLowerCase()));

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
            <Button variant="ghost" onClick={logout}>
              Sign out
            </Button>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-5xl space-y-6 px-4 py-6">
        <UploadSite projects={projects ?? []} hostedBase={hostedBase} onDone={load} />
        <section aria-labelledby="projects-heading">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="projects-heading" className="text-base font-semibold">
              Projects
            </h2>
            {projects && projects.length > 0 ? (
              <input
                type="search"
                aria-label="Filter projects"
                placeholder="Filter by name or note"
                value={filter}
                onChange={(e) => setFilter(e.target.value)}
                className="w-56 rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900"
              />
            ) : null}
          </div>
          <ErrorText>{error}</ErrorText>
          {projects === null ? (
            <p className="mt-2 text-sm text-muted">Loading…</p>
          ) : projects.length === 0 ? (
            <p className="mt-2 rounded-lg border border-dashed border-zinc-300 p-6 text-center text-sm text-muted dark:border-zinc-700">
              No projects yet. Drop a folder above to publish your first site.
            </p>
          ) : (
            <ul className="mt-3 space-y-3">
              {shown.map((p) => (
                <ProjectCard key={p.slug} project={p} hostedBase={hostedBase} onChanged={load} />
              ))}
            </ul>
          )}
        </section>
        <ChangeTokenForm />
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
