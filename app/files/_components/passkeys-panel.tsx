'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { useCallback, useEffect, useState } from 'react';
import { boldName, Button, Card, ErrorText, Field } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { assertPasskey, createPasskey, describePasskeyError } from '@/lib/client/passkeys';
import type { Passkey } from '@/lib/contract/dtos';
import { useDescribeError } from '@/lib/client/error-text';

/**
 * Settings → Passkeys: add one (named), each with when it was added and last used, rename,
 * remove. Removing the last one asks for the current password or a passkey again.
 */
export function PasskeysPanel({ hasPassword = true }: { hasPassword?: boolean }) {
  const describeError = useDescribeError();
  const problem = (err: unknown) => describePasskeyError(err) ?? describeError(err);
  const t = useTranslations('passkeys');
  const format = useFormatter();
  const when = (iso: string) => format.dateTime(new Date(iso), { dateStyle: 'medium', timeStyle: 'short' });
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
      <h2 className="text-base font-semibold">{t('heading')}</h2>
      <p className="mt-1 text-sm text-muted">{t('intro')}</p>
      <ul className="mt-4 divide-y divide-zinc-200 dark:divide-zinc-800" aria-label={t('heading')}>
        {(items ?? []).map((pk) => (
          <li key={pk.id} className="py-3" data-testid="passkey-row">
            {renaming?.id === pk.id ? (
              <form className="flex flex-wrap items-end gap-2" onSubmit={(e) => void rename(e)}>
                <Field label={t('nameLabel')} name="passkey_name" required maxLength={64} value={renaming.name} onChange={(e) => setRenaming({ id: pk.id, name: e.target.value })} />
                <Button type="submit" disabled={busy}>
                  {t('saveName')}
                </Button>
                <Button type="button" variant="secondary" onClick={() => setRenaming(null)}>
                  {t('cancel')}
                </Button>
              </form>
            ) : removing?.id === pk.id ? (
              <div className="space-y-3 text-sm">
                <p>
                  {t.rich(last ? 'removeLastConfirm' : 'removeConfirm', { name: pk.name, b: boldName })}
                </p>
                {last && hasPassword ? (
                  <Field label={t('currentPassword')} name="current_password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
                ) : null}
                <div className="flex flex-wrap gap-2">
                  {last ? (
                    <>
                      {hasPassword ? (
                        <Button variant="danger" disabled={busy || !password} onClick={() => void remove(pk, 'password')}>
                          {t('removeWithPassword')}
                        </Button>
                      ) : null}
                      <Button variant="danger" disabled={busy} onClick={() => void remove(pk, 'passkey')}>
                        {t('removeWithPasskey')}
                      </Button>
                    </>
                  ) : (
                    <Button variant="danger" disabled={busy} onClick={() => void remove(pk, 'none')}>
                      {t('remove')}
                    </Button>
                  )}
                  <Button variant="secondary" onClick={() => setRemoving(null)}>
                    {t('cancel')}
                  </Button>
                </div>
              </div>
            ) : (
              <div className="flex flex-wrap items-center justify-between gap-2">
                <div className="min-w-0 text-sm">
                  <p className="font-medium">
                    <bdi>{pk.name}</bdi>
                  </p>
                  <p className="text-muted">
                    {pk.last_used_at ? t('usage', { added: when(pk.created_at), used: when(pk.last_used_at) }) : t('usageNever', { added: when(pk.created_at) })}
                  </p>
                </div>
                <div className="flex gap-2">
                  <Button variant="secondary" onClick={() => setRenaming({ id: pk.id, name: pk.name })} aria-label={t('renameLabel', { name: pk.name })}>
                    {t('rename')}
                  </Button>
                  <Button variant="secondary" onClick={() => { setRemoving(pk); setPassword(''); setError(''); }} aria-label={t('removeLabel', { name: pk.name })}>
                    {t('remove')}
                  </Button>
                </div>
              </div>
            )}
          </li>
        ))}
      </ul>
      {items && items.length === 0 ? <p className="text-sm text-muted">{t('none')}</p> : null}
      <div className="mt-4">
        {adding ? (
          <form className="flex flex-wrap items-end gap-2" onSubmit={(e) => void add(e)}>
            <Field label={t('newName')} name="new_passkey_name" required maxLength={64} placeholder={t('newNamePlaceholder')} value={name} onChange={(e) => setName(e.target.value)} />
            <Button type="submit" disabled={busy}>
              {busy ? t('waiting') : t('create')}
            </Button>
            <Button type="button" variant="secondary" onClick={() => setAdding(false)}>
              {t('cancel')}
            </Button>
          </form>
        ) : (
          <Button onClick={() => setAdding(true)}>
            {t('add')}
          </Button>
        )}
      </div>
      <div className="mt-2">
        <ErrorText>{error}</ErrorText>
      </div>
    </Card>
  );
}
