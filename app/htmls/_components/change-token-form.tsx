'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { Button, Card, ErrorText, Field, SuccessText } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { useDescribeError } from '@/lib/client/error-text';
import { onAsync } from '@/lib/client/on-async';

export function ChangeTokenForm() {
  const t = useTranslations('htmls');
  const describeError = useDescribeError();
  const [token, setToken] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState('');
  const [done, setDone] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setError('');
    setDone(false);
    if (token !== confirm) return setError(t('token.differ'));
    try {
      await callOperation('changeAdminToken', { body: { token } });
      setDone(true);
      setToken('');
      setConfirm('');
    } catch (err) {
      setError(describeError(err));
    }
  }

  return (
    <Card>
      <h2 className="text-base font-semibold">{t('token.heading')}</h2>
      <p className="mt-1 text-sm text-muted">{t('token.intro')}</p>
      <form onSubmit={onAsync(submit)} className="mt-4 grid gap-4 sm:grid-cols-2">
        <Field label={t('token.new')} type="password" autoComplete="new-password" minLength={16} required value={token} onChange={(e) => setToken(e.target.value)} />
        <Field label={t('token.repeat')} type="password" autoComplete="new-password" minLength={16} required value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        <div className="sm:col-span-2 space-y-2">
          <ErrorText>{error}</ErrorText>
          <SuccessText>{done ? t('token.changed') : null}</SuccessText>
          <Button type="submit">{t('token.submit')}</Button>
        </div>
      </form>
    </Card>
  );
}
