'use client';

import { useState } from 'react';
import { ConfirmDialog, Dialog } from '@/app/_components/client-ui';
import { Badge, Button, Card, ErrorText, ProgressBar } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { describeError, formatBytes, formatDate } from '@/lib/client/format';
import { usePagedList, useSettled } from '@/lib/client/use-paged-list';
import { LoadMore, SearchBox } from '@/app/_components/paging';
import type { BodyOf } from '@/lib/contract/operations';
import type { UserDto } from '@/lib/contract/dtos';
import { onAsync } from '@/lib/client/on-async';
import { CreateUserCard } from './create-user-card';
import { DefaultQuotaCard } from './default-quota-card';
import { EditUserForm } from './edit-user-form';

/** The administrator's Users tab: default quota, create a user, the table with edit/disable/delete. */
export function UsersPanel({ selfId, onChanged }: { selfId: string | null; onChanged: () => void }) {
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
          <h2 className="text-base font-semibold">Users</h2>
          {users !== null && (users.length > 0 || query) ? <SearchBox value={query} onChange={setQuery} label="Search users" placeholder="Search by name or e-mail" /> : null}
        </div>
        <ErrorText>{error}</ErrorText>
        {users === null ? (
          <p className="mt-3 text-sm text-muted">Loading…</p>
        ) : users.length === 0 && query ? (
          <p className="mt-3 text-sm text-muted">No users match “{query}”.</p>
        ) : users.length === 0 ? (
          <p className="mt-3 text-sm text-muted">No users yet. Members appear here once they register.</p>
        ) : (
          <div className="mt-3 overflow-x-auto">
            <table className="w-full min-w-[40rem] text-left text-sm">
              <thead className="text-xs uppercase text-muted">
                <tr>
                  <th className="py-2 pr-3">User</th>
                  <th className="py-2 pr-3">Role</th>
                  <th className="py-2 pr-3">Status</th>
                  <th className="py-2 pr-3">Storage</th>
                  <th className="py-2 pr-3">Joined</th>
                  <th className="py-2 text-right">Actions</th>
                </tr>
              </thead>
              <tbody>
                {users.map((u) => (
                  <tr key={u.id} className="border-t border-zinc-200 dark:border-zinc-800" data-testid={`user-${u.username}`}>
                    <td className="py-2 pr-3">
                      <div className="font-medium">{u.username}</div>
                      <div className="text-xs text-muted">{[u.display_name, u.email].filter(Boolean).join(' · ')}</div>
                    </td>
                    <td className="py-2 pr-3">
                      <label className="sr-only" htmlFor={`role-${u.id}`}>
                        Role of {u.username}
                      </label>
                      <select
                        id={`role-${u.id}`}
                        value={u.role}
                        onChange={onAsync((e) => patch(u, { role: e.target.value as UserDto['role'] }))}
                        className="rounded-md border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
                      >
                        <option value="member">member</option>
                        <option value="admin">admin</option>
                      </select>
                    </td>
                    <td className="py-2 pr-3">
                      <Badge tone={u.status === 'active' ? 'green' : 'red'}>{u.status}</Badge>
                    </td>
                    <td className="w-48 py-2 pr-3">
                      <div className="mb-1 text-xs" data-testid="user-quota">
                        {formatBytes(u.used_bytes)} / {formatBytes(u.quota_bytes)}
                      </div>
                      <ProgressBar value={u.used_bytes} max={u.quota_bytes} label={`Storage used by ${u.username}`} />
                    </td>
                    <td className="py-2 pr-3 text-xs text-muted">{formatDate(u.created_at)}</td>
                    <td className="py-2 text-right">
                      <div className="flex justify-end gap-1">
                        <Button variant="secondary" onClick={() => setEditing(u)} aria-label={`Edit ${u.username}`}>
                          Edit
                        </Button>
                        <Button variant="secondary" onClick={onAsync(() => patch(u, { status: u.status === 'active' ? 'disabled' : 'active' }))}>
                          {u.status === 'active' ? 'Disable' : 'Enable'}
                        </Button>
                        <Button variant="secondary" onClick={() => void signOut(u)} aria-label={`Sign ${u.username} out everywhere`}>
                          Sign out
                        </Button>
                        <Button variant="danger" onClick={() => setDeleting(u)} aria-label={`Delete ${u.username}`}>
                          Delete
                        </Button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <LoadMore hasMore={list.hasMore} loading={list.loading} onMore={() => void list.loadMore()} label="Load more users" />
      </Card>
      <Dialog open={editing !== null} onClose={() => setEditing(null)} title={`Edit ${editing?.username ?? ''}`}>
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
        title={`Delete ${deleting?.username ?? ''}?`}
        text="Their account, shares and files are deleted at once. This cannot be undone."
        action="Delete user"
        onConfirm={onAsync(() => deleting && remove(deleting))}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
