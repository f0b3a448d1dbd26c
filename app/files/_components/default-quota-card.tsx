'use client';

import { useEffect, useState } from 'react';
import { Button, Card, ErrorText, Field, SuccessText } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { describeError, parseSize } from '@/lib/client/format';
import { onAsync } from '@/lib/client/on-async';
import { quotaText } from './quota-text';

/** The quota new registrations get (existing users keep theirs). */
export function DefaultQuotaCard() {
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
    if (bytes === null) return setError('Enter the quota as a number of MB or GB, e.g. 50 MB or 1 GB.');
    try {
      const s = await callOperation('updateSettings', { body: { default_quota_bytes: bytes } });
      setValue(quotaText(s.default_quota_bytes));
      setMessage('Saved. New registrations get this quota; existing users keep theirs.');
    } catch (err) {
      setError(describeError(err));
    }
  }
  return (
    <Card>
      <h2 className="text-base font-semibold">Default quota</h2>
      <form onSubmit={onAsync(submit)} className="mt-3 flex flex-wrap items-end gap-3">
        <div className="w-48">
          <Field label="For new registrations" value={value} onChange={(e) => setValue(e.target.value)} />
        </div>
        <Button type="submit">Save default</Button>
      </form>
      <div className="mt-2">
        <ErrorText>{error}</ErrorText>
        <SuccessText>{message}</SuccessText>
      </div>
    </Card>
  );
}
