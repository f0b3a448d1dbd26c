'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { ErrorText, Field, FormActions } from '@/app/_components/ui';
import { parseSize } from '@/lib/client/format';
import type { BodyOf } from '@/lib/contract/operations';
import type { UserDto } from '@/lib/contract/dtos';
import { onAsync } from '@/lib/client/on-async';
import { quotaText } from './quota-text';

/** The administrator's edit form for one user: quota, name, a new password. */
export function EditUserForm({ user, onSave, onCancel }: { user: UserDto; onSave: (body: BodyOf<'updateUser'>) => Promise<void>; onCancel: () => void }) {
  const t = useTranslations('users');
  const [quota, setQuota] = useState(quotaText(user.quota_bytes));
  const [name, setName] = useState(user.display_name);
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const bytes = parseSize(quota);
    if (bytes === null) return setError(t('quotaFormat'));
    if (password && password.length < 8) return setError(t('passwordShort'));
    await onSave({ quota_bytes: bytes, display_name: name, ...(password ? { password } : {}) });
  }
  return (
    <form onSubmit={onAsync(submit)} className="space-y-3">
      <Field label={t('quota')} value={quota} onChange={(e) => setQuota(e.target.value)} hint={t('binaryUnits')} />
      <Field label={t('name')} value={name} onChange={(e) => setName(e.target.value)} />
      <Field label={t('newPasswordOptional')} type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      <ErrorText>{error}</ErrorText>
      <FormActions onCancel={onCancel} />
    </form>
  );
}
