'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useState } from 'react';
import { LanguagePicker } from '@/app/_components/language-picker';
import { Button, Card, ErrorText, Field } from '@/app/_components/ui';
import { ApiError, callOperation } from '@/lib/client/api';
import { useDescribeError } from '@/lib/client/error-text';
import { onAsync } from '@/lib/client/on-async';

export function AdminLogin({ onSignedIn }: { onSignedIn: () => void }) {
  const t = useTranslations('htmls');
  const picker = useTranslations('picker');
  const locale = useLocale();
  const describeError = useDescribeError();
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
      setError(err instanceof ApiError && err.status === 401 ? t('login.wrongToken') : describeError(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4">
      <Card>
        <h1 className="text-xl font-semibold">{t('login.heading')}</h1>
        <p className="mt-1 text-sm text-muted">{t('login.intro')}</p>
        <form onSubmit={onAsync(submit)} className="mt-6 space-y-4">
          <Field
            label={t('login.token')}
            name="token"
            type="password"
            autoComplete="current-password"
            required
            value={token}
            onChange={(e) => setToken(e.target.value)}
          />
          <ErrorText>{error}</ErrorText>
          <Button type="submit" disabled={busy || !token} className="w-full">
            {busy ? t('login.signingIn') : t('login.signIn')}
          </Button>
        </form>
      </Card>
      <footer className="mt-4 flex justify-end">
        <LanguagePicker locale={locale} label={picker('label')} />
      </footer>
    </main>
  );
}
