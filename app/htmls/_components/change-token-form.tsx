'use client';

import { useState } from 'react';
import { Button, Card, ErrorText, Field, SuccessText } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { onAsync } from '@/lib/client/on-async';

export function ChangeTokenForm() {
  const [token, setToken] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState('');
  const [done, setDone] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setError('');
    setDone(false);
    if (token !== confirm) return setError('The two tokens differ.');
    try {
      await callOperation('changeAdminToken', { body: { token } });
      setDone(true);
      setToken('');
      setConfirm('');
    } catch (err) {
      setError((err as Error).message);
    }
  }

  return (
    <Card>
      <h2 className="text-base font-semibold">Change the Admin Token</h2>
      <p className="mt-1 text-sm text-muted">
        Every other admin session ends, and guests must re-enter project and share passwords.
      </p>
      <form onSubmit={onAsync(submit)} className="mt-4 grid gap-4 sm:grid-cols-2">
        <Field label="New token" type="password" autoComplete="new-password" minLength={16} required value={token} onChange={(e) => setToken(e.target.value)} />
        <Field label="Repeat it" type="password" autoComplete="new-password" minLength={16} required value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        <div className="sm:col-span-2 space-y-2">
          <ErrorText>{error}</ErrorText>
          <SuccessText>{done ? 'Admin Token changed.' : null}</SuccessText>
          <Button type="submit">Change token</Button>
        </div>
      </form>
    </Card>
  );
}
