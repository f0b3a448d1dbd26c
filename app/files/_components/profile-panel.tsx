'use client';

import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { bdiTag, boldName, Button, Card, Checkbox, CHECKBOX_LABEL, ErrorText, Field, SuccessText } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import type { UserDto } from '@/lib/contract/dtos';
import { onAsync } from '@/lib/client/on-async';
import { LOCALE_NAMES, LOCALES, type Locale } from '@/lib/i18n/locales';
import { useDescribeError } from '@/lib/client/error-text';

const NOTIFY = [
  ['downloads', 'notifyDownloads'],
  ['uploads', 'notifyUploads'],
  ['expiring', 'notifyExpiring'],
] as const;

export function ProfilePanel({ user, onSaved, onDeleted }: { user: UserDto; onSaved: () => void; onDeleted: () => void }) {
  const describeError = useDescribeError();
  const t = useTranslations('profile');
  const ids = useId();
  const [form, setForm] = useState({ display_name: user.display_name, email: user.email, phone: user.phone, notify: user.notify, locale: user.locale });
  /** Asked again when the e-mail changes (an account with no password: a recent single sign-on instead). */
  const [currentPassword, setCurrentPassword] = useState('');
  const emailChanged = form.email.trim() !== user.email;
  const [error, setError] = useState('');
  const [saved, setSaved] = useState(false);
  const [confirm, setConfirm] = useState('');
  const [deleteError, setDeleteError] = useState('');
  const [busy, setBusy] = useState(false);
  const [resent, setResent] = useState('');
  const [resendError, setResendError] = useState('');

  async function save(e: React.FormEvent) {
    e.preventDefault();
    setError('');
    setSaved(false);
    try {
      const r = await callOperation('updateProfile', { body: emailChanged ? { ...form, current_password: currentPassword } : form });
      setCurrentPassword('');
      setSaved(true);
      setResent(r.user.email && !r.user.email_verified && r.user.email !== user.email ? t('sentConfirmation', { email: r.user.email }) : '');
      // Another language: the page is written again in it (the server picks it from the profile).
      if (r.user.locale !== user.locale) {
        location.reload();
        return;
      }
      onSaved();
    } catch (err) {
      setError(describeError(err));
    }
  }

  async function resend() {
    setResent('');
    setResendError('');
    try {
      await callOperation('resendEmailConfirmation');
      setResent(t('sentNewConfirmation', { email: user.email }));
      onSaved();
    } catch (err) {
      setResendError(describeError(err));
    }
  }

  async function remove(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setDeleteError('');
    try {
      await callOperation('deleteOwnAccount');
      onDeleted();
    } catch (err) {
      setDeleteError(describeError(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Card>
        <h2 className="text-base font-semibold">{t('heading')}</h2>
        <p className="mt-1 text-sm text-muted">
          {t.rich('signedInAs', {
            username: user.username,
            b: boldName,
          })}
        </p>
        <form onSubmit={onAsync(save)} className="mt-4 grid gap-4 sm:grid-cols-3">
          <Field label={t('name')} value={form.display_name} maxLength={100} onChange={(e) => setForm({ ...form, display_name: e.target.value })} />
          <Field label={t('email')} type="email" value={form.email} maxLength={254} onChange={(e) => setForm({ ...form, email: e.target.value })} />
          <Field label={t('phone')} type="tel" value={form.phone} maxLength={32} onChange={(e) => setForm({ ...form, phone: e.target.value })} />
          <div className="text-sm sm:col-span-3">
            <label htmlFor={`${ids}-locale`} className="mb-1 block font-medium text-zinc-700 dark:text-zinc-300">
              {t('language')}
            </label>
            <select
              id={`${ids}-locale`}
              name="locale"
              aria-describedby={`${ids}-locale-hint`}
              value={form.locale ?? ''}
              onChange={(e) => setForm({ ...form, locale: (e.target.value || null) as Locale | null })}
              className="block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 max-sm:min-h-11 sm:w-auto dark:border-zinc-700 dark:bg-zinc-900"
            >
              <option value="">{t('languageBrowser')}</option>
              {/* Each language in its own words, whatever the page's language. */}
              {LOCALES.map((l) => (
                <option key={l} value={l} lang={l}>
                  {LOCALE_NAMES[l]}
                </option>
              ))}
            </select>
            <p id={`${ids}-locale-hint`} className="mt-1 text-xs text-muted">
              {t('languageHint')}
            </p>
          </div>
          {emailChanged ? (
            <div className="sm:col-span-3">
              <Field
                label={t('currentPassword')}
                name="current_password"
                type="password"
                autoComplete="current-password"
                value={currentPassword}
                onChange={(e) => setCurrentPassword(e.target.value)}
                hint={t('currentPasswordHint')}
              />
            </div>
          ) : null}
          {user.email ? (
            // Mail goes only to a confirmed address: until its link is opened, nothing is sent there.
            <div className="space-y-2 text-sm sm:col-span-3" data-testid="email-status">
              {user.email_verified ? (
                <p className="text-muted">{t.rich('emailConfirmed', { email: user.email, addr: bdiTag })}</p>
              ) : (
                <>
                  <p className="text-amber-800 dark:text-amber-300">
                    {t.rich('emailPending', {
                      email: user.email,
                      b: boldName,
                    })}
                  </p>
                  <Button type="button" variant="secondary" onClick={onAsync(resend)}>
                    {t('resend')}
                  </Button>
                </>
              )}
              <ErrorText>{resendError}</ErrorText>
              <SuccessText>{resent || null}</SuccessText>
            </div>
          ) : null}
          <fieldset className="sm:col-span-3">
            <legend className="text-sm font-medium">{t('notifyLegend')}</legend>
            <div className="mt-2 flex flex-col gap-1 sm:flex-row sm:gap-6">
              {NOTIFY.map(([key, label]) => (
                <label key={key} className={`${CHECKBOX_LABEL} min-w-11 text-sm`}>
                  <Checkbox checked={form.notify[key]} onChange={(e) => setForm({ ...form, notify: { ...form.notify, [key]: e.target.checked } })} />
                  {t(label)}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="space-y-2 sm:col-span-3">
            <ErrorText>{error}</ErrorText>
            <SuccessText>{saved ? t('saved') : null}</SuccessText>
            <Button type="submit">{t('save')}</Button>
          </div>
        </form>
      </Card>
      <Card className="border-red-200 dark:border-red-900">
        <h2 className="text-base font-semibold text-red-700 dark:text-red-400">{t('deleteHeading')}</h2>
        <p className="mt-1 text-sm text-subtle">
          {t('deleteWarning')}
        </p>
        <form onSubmit={onAsync(remove)} className="mt-4 space-y-3">
          <Field
            label={t('deleteConfirm', { username: user.username })}
            value={confirm}
            autoComplete="off"
            onChange={(e) => setConfirm(e.target.value)}
          />
          <ErrorText>{deleteError}</ErrorText>
          <Button type="submit" variant="danger" disabled={busy || confirm.trim().toLowerCase() !== user.username}>
            {t('deleteButton')}
          </Button>
        </form>
      </Card>
    </>
  );
}
