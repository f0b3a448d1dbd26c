'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { Button, Card, ErrorText, Field, SuccessText } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { parseSize } from '@/lib/client/format';
import { onAsync } from '@/lib/client/on-async';
import { quotaText } from './quota-text';
import { useDescribeError } from '@/lib/client/error-text';

/** The quota new registrations get (existing users keep theirs). */
export function DefaultQuotaCard() {
  const describeError = useDescribeError();
  const t = useTranslations('users');
  const [value, setValue] = useState('');
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');
  useEffect(() => {
    callOperation('getSettings').then(
      (s) => setValue(quotaText(s.default_quota_bytes)),
      (err) => setError(describeError(err)),
    );
  }, []);
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setError('');
    setMessage('');
    const bytes = parseSize(value);
    if (bytes === null) return setError(t('defaultQuotaFormat'));
    try {
      const s = await callOperation('updateSettings', { body: { default_quota_bytes: bytes } });
      setValue(quotaText(s.default_quota_bytes));
      setMessage(t('defaultQuotaSaved'));
    } catch (err) {
      setError(describeError(err));
    }
  }
  return (
    <Card>
      <h2 className="text-base font-semibold">{t('defaultQuota')}</h2>
      <form onSubmit={onAsync(submit)} className="mt-3 flex flex-wrap items-end gap-3">
        <div className="w-48">
          <Field label={t('forNewRegistrations')} value={value} onChange={(e) => setValue(e.target.value)} />
        </div>
        <Button type="submit">{t('saveDefault')}</Button>
      </form>
      <div className="mt-2">
        <ErrorText>{error}</ErrorText>
        <SuccessText>{message}</SuccessText>
      </div>
    </Card>
  );
}
