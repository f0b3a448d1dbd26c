'use client';

import { useFormatter, useLocale, useTranslations } from 'next-intl';
import { useCallback, useEffect, useState } from 'react';
import { ConfirmDialog, CopyButton, Dialog } from '@/app/_components/client-ui';
import { Badge, Button, ErrorText } from '@/app/_components/ui';
import { LockIcon } from '@/app/_components/icons';
import { callOperation } from '@/lib/client/api';
import { formatBytes } from '@/lib/client/format';
import { useDescribeError } from '@/lib/client/error-text';
import type { FileDto, ProjectSummaryDto } from '@/lib/contract/dtos';
import { siteUrl } from '@/lib/hosting/site-url';
import { onAsync } from '@/lib/client/on-async';
import { DeployHistory } from './deploy-history';
import { DeployTokenButton } from './deploy-token';
import { DomainsPanel } from './domains-panel';
import { EditProject } from './edit-project';

export function ProjectCard({ project: p, hostedBase, onChanged }: { project: ProjectSummaryDto; hostedBase: string | null; onChanged: () => void }) {
  const t = useTranslations('projects');
  const locale = useLocale();
  const format = useFormatter();
  const describeError = useDescribeError();
  const [open, setOpen] = useState<'files' | 'deploys' | 'domains' | null>(null);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState('');
  // List entries carry counts, not files: the files are fetched when the list of them is opened.
  const [files, setFiles] = useState<FileDto[] | null>(null);
  const url = siteUrl(hostedBase, p.slug);
  const sitePath = `/p/${p.slug}/`;
  const loadFiles = useCallback(async () => {
    try {
      setFiles((await callOperation('getProject', { params: { slug: p.slug } })).project.files);
    } catch (err) {
      setError(describeError(err));
    }
  }, [p.slug]);
  useEffect(() => {
    if (open === 'files') void loadFiles();
  }, [open, loadFiles, p.deploy_id]);

  async function run(fn: () => Promise<unknown>) {
    setError('');
    try {
      await fn();
      onChanged();
      if (open === 'files') await loadFiles();
    } catch (err) {
      setError(describeError(err));
    }
  }
  const toggle = (what: 'files' | 'deploys' | 'domains') => setOpen(open === what ? null : what);

  return (
    <li className="rounded-xl border border-zinc-200 bg-white p-4 shadow-sm dark:border-zinc-800 dark:bg-zinc-900" data-testid={`project-${p.slug}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <a href={url} target="_blank" rel="noreferrer" dir="ltr" className="font-mono font-medium text-indigo-700 hover:underline dark:text-indigo-300">
              {sitePath}
            </a>
            {p.has_password ? <Badge tone="indigo">
                <span className="inline-flex items-center gap-1">
                  <LockIcon /> {t('password')}
                </span>
              </Badge> : null}
            {p.spa ? <Badge tone="zinc">{t('spa')}</Badge> : null}
            {!p.has_html ? <Badge tone="amber">{t('noHtml')}</Badge> : null}
            {p.online_count === 0 ? <Badge tone="zinc">{t('hidden')}</Badge> : null}
          </div>
          {p.note ? (
            <p dir="auto" className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
              {p.note}
            </p>
          ) : null}
          <p className="mt-1 text-xs text-muted">
            {t('summary', { count: p.file_count, size: formatBytes(p.total_bytes, locale), date: format.dateTime(new Date(p.created_at), { dateStyle: 'medium', timeStyle: 'short' }) })}
          </p>
        </div>
        <div className="flex flex-wrap gap-1">
          <CopyButton text={url} label={t('copyLink')} copiedLabel={t('copied')} promptLabel={t('copyPrompt')} />
          <Button variant="secondary" onClick={() => toggle('files')} aria-expanded={open === 'files'}>
            {open === 'files' ? t('hideFiles') : t('files')}
          </Button>
          <Button variant="secondary" onClick={() => toggle('deploys')} aria-expanded={open === 'deploys'}>
            {open === 'deploys' ? t('hideDeploys') : t('deploys')}
          </Button>
          <Button variant="secondary" onClick={() => toggle('domains')} aria-expanded={open === 'domains'}>
            {open === 'domains' ? t('hideDomains') : p.domains.length > 0 ? t('domainsCount', { count: p.domains.length }) : t('domains')}
          </Button>
          <Button variant="secondary" onClick={() => setEditing(true)}>
            {t('edit')}
          </Button>
          <DeployTokenButton slug={p.slug} />
          <Button variant="danger" onClick={() => setDeleting(true)}>
            {t('delete')}
          </Button>
        </div>
      </div>
      <ErrorText>{error}</ErrorText>
      {open === 'domains' ? <DomainsPanel project={p} onChanged={onChanged} /> : null}
      {open === 'deploys' ? <DeployHistory slug={p.slug} hostedBase={hostedBase} liveId={p.deploy_id} onChanged={onChanged} /> : null}
      {open === 'files' && files === null ? <p className="mt-3 text-sm text-muted">{t('loading')}</p> : null}
      {open === 'files' && files !== null ? (
        <ul className="mt-3 divide-y divide-zinc-100 text-sm dark:divide-zinc-800">
          {files.map((f) => (
            <li key={f.id} className="flex flex-wrap items-center justify-between gap-2 py-1.5" data-testid={`file-${f.path}`}>
              <a href={siteUrl(hostedBase, p.slug, f.path)} target="_blank" rel="noreferrer" className="break-all hover:underline">
                <bdi>{f.path}</bdi>
              </a>
              <span className="flex items-center gap-2 text-xs text-muted">
                {formatBytes(f.size, locale)}
                <Button
                  variant="secondary"
                  onClick={onAsync(() => run(() => callOperation('setFileStatus', { body: { id: f.id, status: f.status === 'online' ? 'offline' : 'online' } })))}
                  aria-label={f.status === 'online' ? t('takeOffline', { path: f.path }) : t('putOnline', { path: f.path })}
                >
                  {f.status === 'online' ? t('online') : t('offline')}
                </Button>
                <Button variant="ghost" onClick={onAsync(() => run(() => callOperation('deleteFile', { params: { id: f.id } })))} aria-label={t('deleteFile', { path: f.path })}>
                  ✕
                </Button>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      <Dialog open={editing} onClose={() => setEditing(false)} title={t('editTitle', { slug: p.slug })}>
        {editing ? (
          <EditProject
            project={p}
            onCancel={() => setEditing(false)}
            onSave={(body) =>
              run(async () => {
                await callOperation('updateProject', { params: { slug: p.slug }, body });
                setEditing(false);
              })
            }
          />
        ) : null}
      </Dialog>
      <ConfirmDialog
        open={deleting}
        title={t('deleteTitle', { slug: p.slug })}
        text={t('deleteText')}
        action={t('deleteProject')}
        cancelLabel={t('cancel')}
        onConfirm={onAsync(() => run(() => callOperation('deleteProject', { params: { slug: p.slug } })))}
        onClose={() => setDeleting(false)}
      />
    </li>
  );
}
