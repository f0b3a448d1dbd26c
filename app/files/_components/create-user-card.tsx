'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { Button, Card, ErrorText, Field, SuccessText } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { parseSize } from '@/lib/client/format';
import type { UserDto } from '@/lib/contract/dtos';
import { onAsync } from '@/lib/client/on-async';
import { useDescribeError } from '@/lib/client/error-text';

/** The administrator creates a member or another administrator. */
export function CreateUserCard({ onCreated }: { onCreated: () => void }) {
  const describeError = useDescribeError();
  const t = useTranslations('users');
  const [form, setForm] = useState({ username: '', password: '', quota: '', role: 'member' as UserDto['role'] });
  const [error, setError] = useState('');
  const [done, setDone] = useState('');
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setError('');
    setDone('');
    const quota = form.quota.trim() ? parseSize(form.quota) : undefined;
    if (quota === null) return setError(t('quotaFormat'));
    try {
      await callOperation('createUser', { body: { username: form.username, password: form.password, role: form.role, quota_bytes: quota } });
      setDone(t('created', { user: form.username.toLowerCase() }));
      setForm({ username: '', password: '', quota: '', role: 'member' });
      onCreated();
    } catch (err) {
      setError(describeError(err));
    }
  }
  return (
    <Card>
      <h2 className="text-base font-semibold">{t('createHeading')}</h2>
      <form onSubmit={onAsync(submit)} className="mt-4 grid gap-4 sm:grid-cols-4">
        <Field label={t('username')} required minLength={3} maxLength={32} value={form.username} onChange={(e) => setForm({ ...form, username: e.target.value })} />
        <Field label={t('password')} type="password" autoComplete="new-password" required minLength={8} value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} />
        <Field label={t('quota')} placeholder={t('quotaDefault')} value={form.quota} onChange={(e) => setForm({ ...form, quota: e.target.value })} />
        <label className="block text-sm">
          <span className="mb-1 block font-medium text-zinc-700 dark:text-zinc-300">{t('role')}</span>
          <select value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as UserDto['role'] })} className="block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900">
            <option value="member">{t('roleMember')}</option>
            <option value="admin">{t('roleAdmin')}</option>
          </select>
        </label>
        <div className="space-y-2 sm:col-span-4">
          <ErrorText>{error}</ErrorText>
          <SuccessText>{done}</SuccessText>
          <Button type="submit">{t('createUser')}</Button>
        </div>
      </form>
    </Card>
  );
}
