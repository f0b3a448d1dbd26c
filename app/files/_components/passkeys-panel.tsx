'use client';

import { useCallback, useEffect, useState } from 'react';
import { Button, Card, ErrorText, Field } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { describeError } from '@/lib/client/format';
import { assertPasskey, createPasskey, describePasskeyError } from '@/lib/client/passkeys';
import type { Passkey } from '@/lib/contract/dtos';

const when = (iso: string) => new Date(iso).toLocaleString();
const problem = (err: unknown) => describePasskeyError(err) ?? describeError(err);

/**
 * Settings → Passkeys: add one (named), each with when it was added and last used, rename,
 * remove. Removing the last one asks for the current password or a passkey again.
 */
export function PasskeysPanel({ hasPassword = true }: { hasPassword?: boolean }) {
  const [items, setItems] = useState<Passkey[] | null>(null);
  const [name, setName] = useState('');
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const load = useCallback(() => {
    callOperation('listPasskeys').then(
      (r) => setItems(r.passkeys),
      (err: unknown) => setError(describeError(err)),
    );
  }, []);
  useEffect(load, [load]);

  async function act(fn: () => Promise<unknown>) {
    setBusy(true);
    setError('');
    try {
      await fn();
      load();
      return true;
    } catch (err) {
      setError(problem(err));
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function add(e: React.FormEvent) {
    e.preventDefault();
    const ok = await act(async () => callOperation('registerPasskey', { body: { name: name.trim(), response: await createPasskey() } }));
    if (ok) {
      setAdding(false);
      setName('');
    }
  }

  async function rename(e: React.FormEvent) {
    e.preventDefault();
    if (!renaming) return;
    if (await act(() => callOperation('renamePasskey', { params: { id: renaming.id }, body: { name: renaming.name.trim() } }))) setRenaming(null);
  }

  async function remove(pk: Passkey, confirm: 'none' | 'password' | 'passkey') {
    const ok = await act(async () => {
      const body = confirm === 'password' ? { password } : confirm === 'passkey' ? { response: await assertPasskey('second_factor') } : undefined;
      await callOperation('deletePasskey', { params: { id: pk.id }, ...(body ? { body } : {}) });
    });
    if (ok) {
      setRemoving(null);
      setPassword('');
    }
  }

  const last = (items?.length ?? 0) === 1;
  return (
    <Card>
      <h2 className="text-base font-semibold">Passkeys</h2>
      <p className="mt-1 text-sm text-muted">Sign in with your fingerprint, face or screen lock instead of your password. A passkey also counts as your second factor.</p>
      <ul className="mt-4 divide-y divide-zinc-200 dark:divide-zinc-800" aria-label="Passkeys">
        {(items ?? []).map((pk) => (
          <li key={pk.id} className="py-3" data-testid="passkey-row">
            {renaming?.id === pk.id ? (
              <form className="flex flex-wrap items-end gap-2" onSubmit={(e) => void rename(e)}>
                <Field label="Passkey name" name="passkey_name" required maxLength={64} value={renaming.name} onChange={(e) => setRenaming({ id: pk.id, name: e.target.value })} />
                <Button type="submit" disabled={busy}>
                  Save name
                </Button>
                <Button type="button" variant="secondary" onClick={() => setRenaming(null)}>
                  Cancel
                </Button>
              </form>
            ) : removing?.id === pk.id ? (
              <div className="space-y-3 text-sm">
                <p>
                  Remove <strong>{pk.name}</strong>? {last ? 'It is your last passkey: confirm it is you.' : ''}
                </p>
                {last && hasPassword ? (
                  <Field label="Your current password" name="current_password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
                ) : null}
                <div className="flex flex-wrap gap-2">
                  {last ? (
                    <>
                      {hasPassword ? (
                        <Button variant="danger" disabled={busy || !password} onClick={() => void remove(pk, 'password')}>
                          Remove with password
                        </Button>
                      ) : null}
                      <Button variant="danger" disabled={busy} onClick={() => void remove(pk, 'passkey')}>
                        Remove with a passkey
                      </Button>
                    </>
                  ) : (
                    <Button variant="danger" disabled={busy} onClick={() => void remove(pk, 'none')}>
                      Remove
                    </Button>
                  )}
                  <Button variant="secondary" onClick={() => setRemoving(null)}>
                    Cancel
                  </Button>
                </div>
              </div>
            ) : (
              <div className="flex flex-wrap items-center justify-between gap-2">
                <div className="min-w-0 text-sm">
                  <p className="font-medium">{pk.name}</p>
                  <p className="text-muted">
                    Added {when(pk.created_at)} · {pk.last_used_at ? `last used ${when(pk.last_used_at)}` : 'never used'}
                  </p>
                </div>
                <div className="flex gap-2">
                  <Button variant="secondary" onClick={() => setRenaming({ id: pk.id, name: pk.name })} aria-label={`Rename passkey ${pk.name}`}>
                    Rename
                  </Button>
                  <Button variant="secondary" onClick={() => { setRemoving(pk); setPassword(''); setError(''); }} aria-label={`Remove passkey ${pk.name}`}>
                    Remove
                  </Button>
                </div>
              </div>
            )}
          </li>
        ))}
      </ul>
      {items && items.length === 0 ? <p className="text-sm text-muted">No passkeys yet.</p> : null}
      <div className="mt-4">
        {adding ? (
          <form className="flex flex-wrap items-end gap-2" onSubmit={(e) => void add(e)}>
            <Field label="Name for the new passkey" name="new_passkey_name" required maxLength={64} placeholder="Laptop, phone…" value={name} onChange={(e) => setName(e.target.value)} />
            <Button type="submit" disabled={busy}>
              {busy ? 'Waiting for the passkey…' : 'Create passkey'}
            </Button>
            <Button type="button" variant="secondary" onClick={() => setAdding(false)}>
              Cancel
            </Button>
          </form>
        ) : (
          <Button onClick={() => setAdding(true)}>
            Add a passkey
          </Button>
        )}
      </div>
      <div className="mt-2">
        <ErrorText>{error}</ErrorText>
      </div>
    </Card>
  );
}
