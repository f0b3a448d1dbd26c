'use client';

import { useFormatter, useLocale, useTranslations } from 'next-intl';
import { useState } from 'react';
import { ConfirmDialog, Dialog } from '@/app/_components/client-ui';
import { Badge, Button, Card, ErrorText, ProgressBar } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { formatBytes } from '@/lib/format-bytes';
import { usePagedList, useSettled } from '@/lib/client/use-paged-list';
import { LoadMore, SearchBox } from '@/app/_components/paging';
import type { BodyOf } from '@/lib/contract/operations';
import type { UserDto } from '@/lib/contract/dtos';
import { onAsync } from '@/lib/client/on-async';
import { CreateUserCard } from './create-user-card';
import { DefaultQuotaCard } from './default-quota-card';
import { EditUserForm } from './edit-user-form';
import { useDescribeError } from '@/lib/client/error-text';

/** The administrator's Users tab: default quota, create a user, the table with edit/disable/delete. */
export function UsersPanel({ selfId, onChanged }: { selfId: string | null; onChanged: () => void }) {
  const describeError = useDescribeError();
  const t = useTranslations('users');
  const locale = useLocale();
  const format = useFormatter();
  const formatDate = (iso: string) => format.dateTime(new Date(iso), { dateStyle: 'medium', timeStyle: 'short' });
  const [query, setQuery] = useState('');
  // A page at a time, newest first, searched on the server (username, name or e-mail).
  const list = usePagedList('listUsers', { q: useSettled(query) });
  const { entries: users, error, setError, reload: load } = list;
  const [editing, setEditing] = useState<UserDto | null>(null);
  const [deleting, setDeleting] = useState<UserDto | null>(null);

  async function patch(u: UserDto, body: BodyOf<'updateUser'>) {
    setError('');
    try {
      await callOperation('updateUser', { params: { id: u.id }, body });
      await load();
      if (u.id === selfId) onChanged();
    } catch (err) {
      setError(describeError(err));
    }
  }

  /** Signs the member out everywhere (their sessions end; they sign in again). */
  async function signOut(u: UserDto) {
    setError('');
    try {
      await callOperation('endUserSessions', { params: { id: u.id } });
      if (u.id === selfId) onChanged();
    } catch (err) {
      setError(describeError(err));
    }
  }

  async function remove(u: UserDto) {
    try {
      await callOperation('deleteUser', { params: { id: u.id } });
      setDeleting(null);
      await load();
      if (u.id === selfId) onChanged();
    } catch (err) {
      setError(describeError(err));
    }
  }

  return (
    <>
      <DefaultQuotaCard />
      <CreateUserCard onCreated={onAsync(load)} />
      <Card>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 className="text-base font-semibold">{t('heading')}</h2>
          {users !== null && (users.length > 0 || query) ? <SearchBox value={query} onChange={setQuery} label={t('search')} placeholder={t('searchPlaceholder')} /> : null}
        </div>
        <ErrorText>{error}</ErrorText>
        {users === null ? (
          <p className="mt-3 text-sm text-muted">{t('loading')}</p>
        ) : users.length === 0 && query ? (
          <p className="mt-3 text-sm text-muted">{t('noMatch', { query })}</p>
        ) : users.length === 0 ? (
          <p className="mt-3 text-sm text-muted">{t('empty')}</p>
        ) : (
          <div className="mt-3 overflow-x-auto">
            <table className="w-full min-w-[40rem] text-start text-sm">
              <thead className="text-xs uppercase text-muted">
                <tr>
                  <th className="py-2 pe-3">{t('colUser')}</th>
                  <th className="py-2 pe-3">{t('colRole')}</th>
                  <th className="py-2 pe-3">{t('colStatus')}</th>
                  <th className="py-2 pe-3">{t('colStorage')}</th>
                  <th className="py-2 pe-3">{t('colJoined')}</th>
                  <th className="py-2 text-end">{t('colActions')}</th>
                </tr>
              </thead>
              <tbody>
                {users.map((u) => (
                  <tr key={u.id} className="border-t border-zinc-200 dark:border-zinc-800" data-testid={`user-${u.username}`}>
                    <td className="py-2 pe-3">
                      <div className="font-medium">
                        <bdi>{u.username}</bdi>
                      </div>
                      <div className="text-xs text-muted">
                        <bdi>{[u.display_name, u.email].filter(Boolean).join(' · ')}</bdi>
                      </div>
                    </td>
                    <td className="py-2 pe-3">
                      <label className="sr-only" htmlFor={`role-${u.id}`}>
                        {t('roleOf', { user: u.username })}
                      </label>
                      <select
                        id={`role-${u.id}`}
                        value={u.role}
                        onChange={onAsync((e) => patch(u, { role: e.target.value as UserDto['role'] }))}
                        className="rounded-md border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
                      >
                        <option value="member">{t('roleMember')}</option>
                        <option value="admin">{t('roleAdmin')}</option>
                      </select>
                    </td>
                    <td className="py-2 pe-3">
                      <Badge tone={u.status === 'active' ? 'green' : 'red'}>{u.status === 'active' ? t('statusActive') : t('statusDisabled')}</Badge>
                    </td>
                    <td className="w-48 py-2 pe-3">
                      <div className="mb-1 text-xs" data-testid="user-quota">
                        {formatBytes(u.used_bytes, locale)} / {formatBytes(u.quota_bytes, locale)}
                      </div>
                      <ProgressBar value={u.used_bytes} max={u.quota_bytes} label={t('storageUsed', { user: u.username })} />
                    </td>
                    <td className="py-2 pe-3 text-xs text-muted">{formatDate(u.created_at)}</td>
                    <td className="py-2 text-end">
                      <div className="flex justify-end gap-1">
                        <Button variant="secondary" onClick={() => setEditing(u)} aria-label={t('editLabel', { user: u.username })}>
                          {t('edit')}
                        </Button>
                        <Button variant="secondary" onClick={onAsync(() => patch(u, { status: u.status === 'active' ? 'disabled' : 'active' }))}>
                          {u.status === 'active' ? t('disable') : t('enable')}
                        </Button>
                        <Button variant="secondary" onClick={() => void signOut(u)} aria-label={t('signOutLabel', { user: u.username })}>
                          {t('signOut')}
                        </Button>
                        <Button variant="danger" onClick={() => setDeleting(u)} aria-label={t('deleteLabel', { user: u.username })}>
                          {t('delete')}
                        </Button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <LoadMore hasMore={list.hasMore} loading={list.loading} onMore={() => void list.loadMore()} label={t('loadMore')} />
      </Card>
      <Dialog open={editing !== null} onClose={() => setEditing(null)} title={t('editLabel', { user: editing?.username ?? '' })}>
        {editing ? (
          <EditUserForm
            user={editing}
            onSave={async (body) => {
              await patch(editing, body);
              setEditing(null);
            }}
            onCancel={() => setEditing(null)}
          />
        ) : null}
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        title={t('deleteTitle', { user: deleting?.username ?? '' })}
        text={t('deleteText')}
        action={t('deleteAction')}
        onConfirm={onAsync(() => deleting && remove(deleting))}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
