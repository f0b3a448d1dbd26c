'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { useRouter } from 'next/navigation';
import { CopyButton, Dialog } from '@/app/_components/client-ui';
import { Badge, Button, Card, ErrorText, Field, ProgressBar } from '@/app/_components/ui';
import { api } from '@/lib/client/api';
import { filesFromDrop, filesFromList, isJunk, type PickedFile } from '@/lib/client/collect-files';
import { describeError, formatBytes, formatDate, formatEta, formatSpeed } from '@/lib/client/format';
import { uploadSite } from '@/lib/client/hosted-upload';
import { SpeedMeter } from '@/lib/client/share-upload';
import type { ProjectDto } from '@/lib/hosting/project-dto';
import { ChangeTokenForm } from './change-token-form';

const absolute = (path: string) => new URL(path, window.location.origin).toString();
const randomSlug = () => {
  const a = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return [...crypto.getRandomValues(new Uint8Array(8))].map((b) => a[b % a.length]).join('');
};

export function AdminConsole({ hostedBase, sandboxed }: { hostedBase: string | null; sandboxed: boolean }) {
  const router = useRouter();
  const [projects, setProjects] = useState<ProjectDto[] | null>(null);
  const [error, setError] = useState('');
  const [filter, setFilter] = useState('');

  const load = useCallback(async () => {
    try {
      setProjects((await api<{ projects: ProjectDto[] }>('/api/files')).projects);
    } catch (err) {
      setError(describeError(err));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  async function logout() {
    await api('/api/auth/logout', { method: 'POST' }).catch(() => {});
    router.refresh();
  }

  const shown = (projects ?? []).filter((p) => !filter || p.slug.includes(filter.toLowerCase()) || p.note.toLowerCase().includes(filter.toLowerCase()));

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
        <UploadSite projects={projects ?? []} onDone={load} />
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
            <p className="mt-2 text-sm text-zinc-500">Loading…</p>
          ) : projects.length === 0 ? (
            <p className="mt-2 rounded-lg border border-dashed border-zinc-300 p-6 text-center text-sm text-zinc-500 dark:border-zinc-700">
              No projects yet. Drop a folder above to publish your first site.
            </p>
          ) : (
            <ul className="mt-3 space-y-3">
              {shown.map((p) => (
                <ProjectCard key={p.slug} project={p} onChanged={load} />
              ))}
            </ul>
          )}
        </section>
        <ChangeTokenForm />
      </main>
    </div>
  );
}

function UploadSite({ projects, onDone }: { projects: ProjectDto[]; onDone: () => void }) {
  const [picked, setPicked] = useState<PickedFile[]>([]);
  const [slug, setSlug] = useState('');
  const [note, setNote] = useState('');
  const [password, setPassword] = useState('');
  const [append, setAppend] = useState(false);
  const [progress, setProgress] = useState<{ loaded: number; total: number; speed: number } | null>(null);
  const [error, setError] = useState('');
  const [done, setDone] = useState<ProjectDto | null>(null);
  const [dragging, setDragging] = useState(false);
  const abortRef = useRef<AbortController | null>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  useEffect(() => folderInput.current?.setAttribute('webkitdirectory', ''), []);

  const total = picked.reduce((n, p) => n + p.file.size, 0);
  const add = (files: PickedFile[]) => {
    setDone(null);
    setError('');
    setPicked(files.filter((f) => !isJunk(f.path)));
  };

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setError('');
    setDone(null);
    if (picked.length === 0) return setError('Choose or drop a folder or some files first.');
    if (slug && !/^[a-z0-9_-]{1,64}$/.test(slug)) return setError('A name is 1 to 64 of a–z, 0–9, "-" and "_".');
    const controller = new AbortController();
    abortRef.current = controller;
    const meter = new SpeedMeter();
    setProgress({ loaded: 0, total, speed: 0 });
    try {
      const project = await uploadSite(picked, {
        slug: slug || undefined,
        note,
        password,
        append,
        signal: controller.signal,
        onProgress: (loaded, all) => {
          meter.add(loaded);
          setProgress({ loaded, total: all, speed: meter.speed() });
        },
      });
      setDone(project);
      setPicked([]);
      setSlug('');
      setNote('');
      setPassword('');
      setAppend(false);
      onDone();
    } catch (err) {
      setError((err as Error).name === 'AbortError' ? 'Upload cancelled. Nothing was published.' : describeError(err));
    } finally {
      setProgress(null);
      abortRef.current = null;
    }
  }

  const exists = slug !== '' && projects.some((p) => p.slug === slug);
  return (
    <Card>
      <h2 className="text-base font-semibold">Publish a site</h2>
      <form onSubmit={submit}>
        <div
          data-testid="site-dropzone"
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={async (e) => {
            e.preventDefault();
            setDragging(false);
            if (!progress) add(await filesFromDrop(e.dataTransfer));
          }}
          className={`mt-3 rounded-lg border-2 border-dashed p-6 text-center text-sm ${dragging ? 'border-indigo-500 bg-indigo-50 dark:bg-indigo-950' : 'border-zinc-300 dark:border-zinc-700'}`}
        >
          <p className="text-zinc-600 dark:text-zinc-400">Drop a site folder (with index.html) here</p>
          <div className="mt-3 flex flex-wrap justify-center gap-2">
            <label className="cursor-pointer rounded-md bg-white px-3 py-2 font-medium ring-1 ring-zinc-300 hover:bg-zinc-100 focus-within:outline-2 focus-within:outline-indigo-500 dark:bg-zinc-900 dark:ring-zinc-700">
              Choose folder
              <input ref={folderInput} type="file" multiple className="sr-only" onChange={(e) => add(filesFromList(e.target.files))} data-testid="site-folder-input" />
            </label>
            <label className="cursor-pointer rounded-md bg-white px-3 py-2 font-medium ring-1 ring-zinc-300 hover:bg-zinc-100 focus-within:outline-2 focus-within:outline-indigo-500 dark:bg-zinc-900 dark:ring-zinc-700">
              Choose files
              <input type="file" multiple className="sr-only" onChange={(e) => add(filesFromList(e.target.files))} data-testid="site-files-input" />
            </label>
          </div>
          {picked.length > 0 ? (
            <p className="mt-3 font-medium" data-testid="site-picked">
              {picked.length} {picked.length === 1 ? 'file' : 'files'} · {formatBytes(total)}
            </p>
          ) : null}
        </div>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <div className="flex items-start gap-2">
            <div className="flex-1">
              <Field label="Name in the URL (optional)" value={slug} placeholder="8 random characters" onChange={(e) => setSlug(e.target.value.toLowerCase())} hint={`/p/${slug || '…'}/`} />
            </div>
            <Button type="button" variant="secondary" className="mt-6" onClick={() => setSlug(randomSlug())}>
              Random
            </Button>
          </div>
          <Field label="Note (shown in the directory)" value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
          <Field label="Password (optional)" value={password} autoComplete="off" onChange={(e) => setPassword(e.target.value)} />
          <label className="flex items-center gap-2 self-end text-sm">
            <input type="checkbox" checked={append} onChange={(e) => setAppend(e.target.checked)} />
            Add to the existing project {exists ? `“${slug}”` : ''} (same paths are replaced)
          </label>
        </div>
        {progress ? (
          <div className="mt-4 space-y-1" data-testid="site-progress">
            <div className="flex justify-between text-sm">
              <span>
                {formatBytes(progress.loaded)} of {formatBytes(progress.total)}
              </span>
              <span className="text-zinc-500">
                {formatSpeed(progress.speed)} · {progress.speed > 0 ? formatEta((progress.total - progress.loaded) / progress.speed) : '—'} left
              </span>
            </div>
            <ProgressBar value={progress.loaded} max={progress.total} label="Site upload progress" />
          </div>
        ) : null}
        <div className="mt-4 space-y-3">
          <ErrorText>{error}</ErrorText>
          <div className="flex gap-2">
            <Button type="submit" disabled={progress !== null || picked.length === 0}>
              Publish
            </Button>
            {progress ? (
              <Button type="button" variant="secondary" onClick={() => abortRef.current?.abort()}>
                Cancel
              </Button>
            ) : null}
          </div>
          {done ? (
            <div role="status" className="flex flex-wrap items-center gap-3 rounded-lg bg-green-50 p-3 text-sm dark:bg-green-950">
              <span className="text-green-800 dark:text-green-300">Published</span>
              <a href={`${done.url}/`} target="_blank" rel="noreferrer" className="break-all text-indigo-700 underline dark:text-indigo-300" data-testid="site-link">
                {absolute(`${done.url}/`)}
              </a>
              <CopyButton text={absolute(`${done.url}/`)} />
            </div>
          ) : null}
        </div>
      </form>
    </Card>
  );
}

function ProjectCard({ project: p, onChanged }: { project: ProjectDto; onChanged: () => void }) {
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState('');
  const online = p.files.filter((f) => f.status === 'online').length;

  async function run(fn: () => Promise<unknown>) {
    setError('');
    try {
      await fn();
      onChanged();
    } catch (err) {
      setError(describeError(err));
    }
  }

  return (
    <li className="rounded-xl border border-zinc-200 bg-white p-4 shadow-sm dark:border-zinc-800 dark:bg-zinc-900" data-testid={`project-${p.slug}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <a href={`${p.url}/`} target="_blank" rel="noreferrer" className="font-mono font-medium text-indigo-700 hover:underline dark:text-indigo-300">
              /p/{p.slug}/
            </a>
            {p.has_password ? <Badge tone="indigo">🔒 password</Badge> : null}
            {online === 0 ? <Badge tone="zinc">hidden (no file online)</Badge> : null}
          </div>
          {p.note ? <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">{p.note}</p> : null}
          <p className="mt-1 text-xs text-zinc-500">
            {p.file_count} {p.file_count === 1 ? 'file' : 'files'} · {formatBytes(p.total_bytes)} · {formatDate(p.created_at)}
          </p>
        </div>
        <div className="flex flex-wrap gap-1">
          <CopyButton text={absolute(`${p.url}/`)} />
          <Button variant="secondary" onClick={() => setOpen(!open)} aria-expanded={open}>
            {open ? 'Hide files' : 'Files'}
          </Button>
          <Button variant="secondary" onClick={() => setEditing(true)}>
            Edit
          </Button>
          <Button variant="danger" onClick={() => setDeleting(true)}>
            Delete
          </Button>
        </div>
      </div>
      <ErrorText>{error}</ErrorText>
      {open ? (
        <ul className="mt-3 divide-y divide-zinc-100 text-sm dark:divide-zinc-800">
          {p.files.map((f) => (
            <li key={f.id} className="flex flex-wrap items-center justify-between gap-2 py-1.5" data-testid={`file-${f.path}`}>
              <a href={`${p.url}/${f.path.split('/').map(encodeURIComponent).join('/')}`} target="_blank" rel="noreferrer" className="break-all hover:underline">
                {f.path}
              </a>
              <span className="flex items-center gap-2 text-xs text-zinc-500">
                {formatBytes(f.size)}
                <Button
                  variant="secondary"
                  onClick={() => run(() => api('/api/status', { method: 'PATCH', body: { id: f.id, status: f.status === 'online' ? 'offline' : 'online' } }))}
                  aria-label={`${f.status === 'online' ? 'Take offline' : 'Put online'} ${f.path}`}
                >
                  {f.status === 'online' ? 'Online' : 'Offline'}
                </Button>
                <Button variant="ghost" onClick={() => run(() => api(`/api/files/${f.id}`, { method: 'DELETE' }))} aria-label={`Delete ${f.path}`}>
                  ✕
                </Button>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      <Dialog open={editing} onClose={() => setEditing(false)} title={`Edit /p/${p.slug}/`}>
        {editing ? (
          <EditProject
            project={p}
            onCancel={() => setEditing(false)}
            onSave={(body) =>
              run(async () => {
                await api(`/api/projects/${p.slug}`, { method: 'PATCH', body });
                setEditing(false);
              })
            }
          />
        ) : null}
      </Dialog>
      <Dialog open={deleting} onClose={() => setDeleting(false)} title={`Delete /p/${p.slug}/?`}>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">The site and all {p.file_count} files are deleted. This cannot be undone.</p>
        <div className="mt-4 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setDeleting(false)}>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => run(() => api(`/api/projects/${p.slug}`, { method: 'DELETE' }))}>
            Delete project
          </Button>
        </div>
      </Dialog>
    </li>
  );
}

function EditProject({ project, onSave, onCancel }: { project: ProjectDto; onSave: (body: Record<string, unknown>) => Promise<void>; onCancel: () => void }) {
  const [note, setNote] = useState(project.note);
  const [password, setPassword] = useState('');
  const [clear, setClear] = useState(false);
  return (
    <form
      className="space-y-3"
      onSubmit={async (e) => {
        e.preventDefault();
        await onSave({ note, ...(clear ? { password: null } : password ? { password } : {}) });
      }}
    >
      <Field label="Note" value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
      <Field
        label={project.has_password ? 'New password (leave empty to keep)' : 'Password (optional)'}
        value={password}
        autoComplete="off"
        disabled={clear}
        onChange={(e) => setPassword(e.target.value)}
      />
      {project.has_password ? (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={clear} onChange={(e) => setClear(e.target.checked)} />
          Remove the password
        </label>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit">Save</Button>
      </div>
    </form>
  );
}
