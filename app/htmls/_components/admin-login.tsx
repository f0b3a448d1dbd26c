'use client';

import { useState } from 'react';
import { Button, Card, ErrorText, Field } from '@/app/_components/ui';
import { ApiError, callOperation } from '@/lib/client/api';
import { onAsync } from '@/lib/client/on-async';

export function AdminLogin({ onSignedIn }: { onSignedIn: () => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      await callOperation('login', { body: { token } });
      onSignedIn();
    } catch (err) {
      setError(err instanceof ApiError && err.status === 401 ? 'That Admin Token is not right.' : (err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4">
      <Card>
        <h1 className="text-xl font-semibold">Hosting console</h1>
        <p className="mt-1 text-sm text-muted">Sign in with the Admin Token.</p>
        <form onSubmit={onAsync(submit)} className="mt-6 space-y-4">
          <Field
            label="Admin Token"
            name="token"
            type="password"
            autoComplete="current-password"
            required
            value={token}
            onChange={(e) => setToken(e.target.value)}
          />
          <ErrorText>{error}</ErrorText>
          <Button type="submit" disabled={busy || !token} className="w-full">
            {busy ? 'Signing in…' : 'Sign in'}
          </Button>
        </form>
      </Card>
    </main>
  );
}
