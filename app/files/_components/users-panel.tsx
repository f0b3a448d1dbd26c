'use client';

import { useCallback, useEffect, useState } from 'react';
import { Dialog } from '@/app/_components/client-ui';
import { Badge, Button, Card, ErrorText, Field, ProgressBar } from '@/app/_components/ui';
import { api } from '@/lib/client/api';
import { describeError, formatBytes, formatDate, parseSize } from '@/lib/client/format';
import type { UserDto } from '@/lib/users/user-dto';

const GB = 1024 ** 3;
const MB = 1024 ** 2;
/** A quota as the administrator would type it back: whole GB when it is, else MB. */
const quotaText = (bytes: number) => (bytes % GB === 0 && bytes >= GB ? `${bytes / GB} GB` : `${Math.round((bytes / MB) * 100) / 100} MB`);

export function UsersPanel({ selfId, onChanged }: { selfId: string | null; onChanged: () => void }) {
  const [users, setUsers] = useState<UserDto[] | null>(null);
  const [error, setError] = useState('');
  const [editing, setEditing] = useState<UserDto | null>(null);
  const [deleting, setDeleting] = useState<UserDto | null>(null);

  const load = useCallback(async () => {
    try {
      setUsers((await api<{ users: UserDto[] }>('/api/users')).users);
    } catch (err) {
      setError(describeError(err));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  async function patch(u: UserDto, body: Record<string, unknown>) {
    setError('');
    try {
      await api(`/api/users/${u.id}`, { method: 'PATCH', body });
      await load();
      if (u.id === selfId) onChanged();
    } catch (err) {
      setError(describeError(err));
    }
  }

  async function remove(u: UserDto) {
    try {
      await api(`/api/users/${u.id}`, { method: 'DELETE' });
      setDeleting(null);
      await load();
      if (u.id === selfId) onChanged();
    } catch (err) {
      setError(describeError(err));
    }
  }

  return (
    <>
      <DefaultQuota />
      <CreateUser onCreated={load} />
      <Card>
        <h2 className="text-base font-semibold">Users</h2>
        <ErrorText>{error}</ErrorText>
        {users === null ? (
          <p className="mt-3 text-sm text-zinc-500">Loading…</p>
        ) : users.length === 0 ? (
          <p className="mt-3 text-sm text-zinc-500">No users yet. Members appear here once they register.</p>
        ) : (
          <div className="mt-3 overflow-x-auto">
            <table className="w-full min-w-[40rem] text-left text-sm">
              <thead className="text-xs uppercase text-zinc-500">
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
                      <div className="text-xs text-zinc-500">{[u.display_name, u.email].filter(Boolean).join(' · ')}</div>
                    </td>
                    <td className="py-2 pr-3">
                      <label className="sr-only" htmlFor={`role-${u.id}`}>
                        Role of {u.username}
                      </label>
                      <select
                        id={`role-${u.id}`}
                        value={u.role}
                        onChange={(e) => patch(u, { role: e.target.value })}
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
                    <td className="py-2 pr-3 text-xs text-zinc-500">{formatDate(u.created_at)}</td>
                    <td className="py-2 text-right">
                      <div className="flex justify-end gap-1">
                        <Button variant="secondary" onClick={() => setEditing(u)} aria-label={`Edit ${u.username}`}>
                          Edit
                        </Button>
                        <Button variant="secondary" onClick={() => patch(u, { status: u.status === 'active' ? 'disabled' : 'active' })}>
                          {u.status === 'active' ? 'Disable' : 'Enable'}
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
      </Card>
      <Dialog open={editing !== null} onClose={() => setEditing(null)} title={`Edit ${editing?.username ?? ''}`}>
        {editing ? (
          <EditUser
            user={editing}
            onSave={async (body) => {
              await patch(editing, body);
              setEditing(null);
            }}
            onCancel={() => setEditing(null)}
          />
        ) : null}
      </Dialog>
      <Dialog open={deleting !== null} onClose={() => setDeleting(null)} title={`Delete ${deleting?.username ?? ''}?`}>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Their account, shares and files are deleted at once. This cannot be undone.</p>
        <div className="mt-4 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setDeleting(null)}>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => deleting && remove(deleting)}>
            Delete user
          </Button>
        </div>
      </Dialog>
    </>
  );
}

function EditUser({ user, onSave, onCancel }: { user: UserDto; onSave: (body: Record<string, unknown>) => Promise<void>; onCancel: () => void }) {
  const [quota, setQuota] = useState(quotaText(user.quota_bytes));
  const [name, setName] = useState(user.display_name);
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const bytes = parseSize(quota);
    if (bytes === null) return setError('Enter the quota as a number of MB or GB, e.g. 500 MB or 2 GB.');
    if (password && password.length < 8) return setError('A password needs at least 8 characters.');
    await onSave({ quota_bytes: bytes, display_name: name, ...(password ? { password } : {}) });
  }
  return (
    <form onSubmit={submit} className="space-y-3">
      <Field label="Quota (MB or GB)" value={quota} onChange={(e) => setQuota(e.target.value)} hint="Binary units: 1 GB = 1,024 MB." />
      <Field label="Name" value={name} onChange={(e) => setName(e.target.value)} />
      <Field label="New password (optional)" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      <ErrorText>{error}</ErrorText>
      <div className="flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit">Save</Button>
      </div>
    </form>
  );
}

function CreateUser({ onCreated }: { onCreated: () => void }) {
  const [form, setForm] = useState({ username: '', password: '', quota: '', role: 'member' });
  const [error, setError] = useState('');
  const [done, setDone] = useState('');
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setError('');
    setDone('');
    const quota = form.quota.trim() ? parseSize(form.quota) : undefined;
    if (quota === null) return setError('Enter the quota as a number of MB or GB, e.g. 500 MB or 2 GB.');
    try {
      await api('/api/users', { body: { username: form.username, password: form.password, role: form.role, quota_bytes: quota } });
      setDone(`Created ${form.username.toLowerCase()}.`);
      setForm({ username: '', password: '', quota: '', role: 'member' });
      onCreated();
    } catch (err) {
      setError(describeError(err));
    }
  }
  return (
    <Card>
      <h2 className="text-base font-semibold">Create a user</h2>
      <form onSubmit={submit} className="mt-4 grid gap-4 sm:grid-cols-4">
        <Field label="Username" required minLength={3} maxLength={32} value={form.username} onChange={(e) => setForm({ ...form, username: e.target.value })} />
        <Field label="Password" type="password" autoComplete="new-password" required minLength={8} value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} />
        <Field label="Quota (MB or GB)" placeholder="default" value={form.quota} onChange={(e) => setForm({ ...form, quota: e.target.value })} />
        <label className="block text-sm">
          <span className="mb-1 block font-medium text-zinc-700 dark:text-zinc-300">Role</span>
          <select value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value })} className="block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900">
            <option value="member">member</option>
            <option value="admin">admin</option>
          </select>
        </label>
        <div className="space-y-2 sm:col-span-4">
          <ErrorText>{error}</ErrorText>
          {done ? <p role="status" className="text-sm text-green-700 dark:text-green-400">{done}</p> : null}
          <Button type="submit">Create user</Button>
        </div>
      </form>
    </Card>
  );
}

function DefaultQuota() {
  const [value, setValue] = useState('');
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');
  useEffect(() => {
    api<{ default_quota_bytes: number }>('/api/settings').then(
      (s) => setValue(quotaText(s.default_quota_bytes)),
      (err) => setError(describeError(err)),
    );
  }, []);
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setError('');
    setMessage('');
    const bytes = parseSize(value);
    if (bytes === null) return setError('Enter the quota as a number of MB or GB, e.g. 50 MB or 1 GB.');
    try {
      const s = await api<{ default_quota_bytes: number }>('/api/settings', { method: 'PATCH', body: { default_quota_bytes: bytes } });
      setValue(quotaText(s.default_quota_bytes));
      setMessage('Saved. New registrations get this quota; existing users keep theirs.');
    } catch (err) {
      setError(describeError(err));
    }
  }
  return (
    <Card>
      <h2 className="text-base font-semibold">Default quota</h2>
      <form onSubmit={submit} className="mt-3 flex flex-wrap items-end gap-3">
        <div className="w-48">
          <Field label="For new registrations" value={value} onChange={(e) => setValue(e.target.value)} />
        </div>
        <Button type="submit">Save default</Button>
      </form>
      <div className="mt-2">
        <ErrorText>{error}</ErrorText>
        {message ? <p role="status" className="text-sm text-green-700 dark:text-green-400">{message}</p> : null}
      </div>
    </Card>
  );
}
