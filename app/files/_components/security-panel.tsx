'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { useCallback, useEffect, useState } from 'react';
import { Badge, Button, Card, ErrorText, Field, SuccessText } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { assertPasskey, describePasskeyError } from '@/lib/client/passkeys';
import type { UserDto } from '@/lib/contract/dtos';
import type { ResponseOf } from '@/lib/contract/operations';
import { RecoveryCodes, TotpSetup } from './two-factor-forms';
import { useDescribeError } from '@/lib/client/error-text';

type SessionItem = ResponseOf<'listSessions'>['sessions'][number];

type SecurityT = ReturnType<typeof useTranslations<'security'>>;

/** "Firefox on Android", "Safari on iPhone", "htmls CLI"… from a user agent; the raw string is the tooltip. */
export function describeDevice(ua: string, t: SecurityT): string {
  if (!ua) return t('unknownDevice');
  if (/^htmls\//i.test(ua) || /htmls-cli/i.test(ua)) return 'htmls CLI';
  if (/^(curl|wget|node|undici)/i.test(ua)) return ua.split(/[ /]/)[0];
  const browser = /Edg\//.test(ua) ? 'Edge' : /Firefox\//.test(ua) ? 'Firefox' : /Chrom(e|ium)\//.test(ua) ? 'Chrome' : /Safari\//.test(ua) ? 'Safari' : t('browser');
  const os = /iPhone/.test(ua) ? 'iPhone' : /iPad/.test(ua) ? 'iPad' : /Android/.test(ua) ? 'Android' : /Windows/.test(ua) ? 'Windows' : /Mac OS X|Macintosh/.test(ua) ? 'macOS' : /Linux/.test(ua) ? 'Linux' : '';
  return os ? t('deviceOn', { browser, os }) : browser;
}

/** How a session signed in, as the message that names it. */
const METHOD: Record<string, 'methodPassword' | 'methodPasswordTotp' | 'methodPasswordRecovery' | 'methodPasswordPasskey' | 'methodPasskey' | 'methodAdminToken'> = {
  password: 'methodPassword',
  'password+totp': 'methodPasswordTotp',
  'password+recovery': 'methodPasswordRecovery',
  'password+passkey': 'methodPasswordPasskey',
  passkey: 'methodPasskey',
  admin_token: 'methodAdminToken',
};

/** Settings → Two-factor: set up (QR and key), enable with a code, recovery codes once, disable with the password. */
export function TwoFactorPanel({ user, onChanged }: { user: UserDto; onChanged: () => void }) {
  const describeError = useDescribeError();
  const t = useTranslations('security');
  const [mode, setMode] = useState<'idle' | 'setup' | 'disable'>('idle');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function disable(e: React.FormEvent | null, withPasskey = false) {
    e?.preventDefault();
    setBusy(true);
    setError('');
    try {
      await callOperation('totpDisable', { body: withPasskey ? { response: await assertPasskey('second_factor') } : { password } });
      setMode('idle');
      setPassword('');
      onChanged();
    } catch (err) {
      setError(describePasskeyError(err) ?? describeError(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card>
      <h2 className="text-base font-semibold">
        {t('twoFactorHeading')} {user.two_factor ? <Badge tone="green">{t('on')}</Badge> : <Badge>{t('off')}</Badge>}
      </h2>
      <p className="mt-1 text-sm text-muted">{t('twoFactorIntro')}</p>
      <div className="mt-4">
        {codes ? (
          <RecoveryCodes
            codes={codes}
            onDone={() => {
              setCodes(null);
              onChanged();
            }}
          />
        ) : mode === 'setup' ? (
          <TotpSetup
            onCancel={() => setMode('idle')}
            onEnabled={(r) => {
              setMode('idle');
              setCodes(r.recovery_codes);
            }}
          />
        ) : mode === 'disable' ? (
          <form className="space-y-3" onSubmit={(e) => void disable(e)}>
            <Field label={t('yourCurrentPassword')} name="current_password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
            <div className="flex gap-2">
              <Button type="submit" variant="danger" disabled={busy}>
                {t('turnOffTwoFactor')}
              </Button>
              <Button type="button" variant="secondary" disabled={busy} onClick={() => void disable(null, true)}>
                {t('usePasskeyInstead')}
              </Button>
              <Button type="button" variant="secondary" onClick={() => setMode('idle')}>
                {t('cancel')}
              </Button>
            </div>
            <ErrorText>{error}</ErrorText>
          </form>
        ) : user.two_factor ? (
          <Button variant="secondary" onClick={() => setMode('disable')}>
            {t('turnOff')}
          </Button>
        ) : (
          <Button onClick={() => setMode('setup')}>{t('setUpTwoFactor')}</Button>
        )}
      </div>
    </Card>
  );
}

/** Settings → Password: the current one and a new one; other sessions end. */
export function PasswordPanel() {
  const describeError = useDescribeError();
  const t = useTranslations('security');
  const [form, setForm] = useState({ current_password: '', password: '' });
  const [error, setError] = useState('');
  const [done, setDone] = useState(false);
  async function save(e: React.FormEvent) {
    e.preventDefault();
    setError('');
    setDone(false);
    try {
      await callOperation('changePassword', { body: form });
      setForm({ current_password: '', password: '' });
      setDone(true);
    } catch (err) {
      setError(describeError(err));
    }
  }
  return (
    <Card>
      <h2 className="text-base font-semibold">{t('passwordHeading')}</h2>
      <form className="mt-4 grid gap-4 sm:grid-cols-2" onSubmit={(e) => void save(e)}>
        <Field label={t('currentPassword')} name="current_password" type="password" autoComplete="current-password" required value={form.current_password} onChange={(e) => setForm({ ...form, current_password: e.target.value })} />
        <Field label={t('newPassword')} name="new_password" type="password" autoComplete="new-password" required minLength={8} value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} hint={t('newPasswordHint')} />
        <div className="space-y-2 sm:col-span-2">
          <ErrorText>{error}</ErrorText>
          <SuccessText>{done ? t('passwordChanged') : null}</SuccessText>
          <Button type="submit">{t('changePassword')}</Button>
        </div>
      </form>
    </Card>
  );
}

/** Settings → Sessions: each signed-in session, with End and End all others. */
export function SessionsPanel() {
  const describeError = useDescribeError();
  const t = useTranslations('security');
  const format = useFormatter();
  const when = (iso: string) => format.dateTime(new Date(iso), { dateStyle: 'medium', timeStyle: 'short' });
  const [sessions, setSessions] = useState<SessionItem[] | null>(null);
  const [error, setError] = useState('');
  const load = useCallback(() => {
    callOperation('listSessions').then(
      (r) => setSessions(r.sessions),
      (err: unknown) => setError(describeError(err)),
    );
  }, []);
  useEffect(load, [load]);

  async function end(id: string | null) {
    setError('');
    try {
      if (id) await callOperation('endSession', { params: { id } });
      else await callOperation('endOtherSessions');
      load();
    } catch (err) {
      setError(describeError(err));
    }
  }

  const others = sessions?.filter((s) => !s.current).length ?? 0;
  return (
    <Card>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold">{t('sessionsHeading')}</h2>
        <Button variant="secondary" disabled={others === 0} onClick={() => void end(null)}>
          {t('endAllOthers')}
        </Button>
      </div>
      <p className="mt-1 text-sm text-muted">{t('sessionsIntro')}</p>
      <ul className="mt-4 divide-y divide-zinc-200 dark:divide-zinc-800" aria-label={t('sessionsHeading')}>
        {(sessions ?? []).map((s) => (
          <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 py-3" data-testid="session-row">
            <div className="min-w-0 text-sm">
              <p className="font-medium" title={s.user_agent}>
                <bdi>{describeDevice(s.user_agent, t)}</bdi> {s.current ? <Badge tone="indigo">{t('thisSession')}</Badge> : null}
              </p>
              <p className="text-muted">
                {t(s.network ? 'sessionDetailNetwork' : 'sessionDetail', {
                  method: s.method in METHOD ? t(METHOD[s.method]) : s.method,
                  when: when(s.last_used_at),
                  network: s.network ?? '',
                })}
              </p>
            </div>
            {s.current ? null : (
              <Button variant="secondary" onClick={() => void end(s.id)} aria-label={t('endSession', { device: describeDevice(s.user_agent, t), when: when(s.last_used_at) })}>
                {t('end')}
              </Button>
            )}
          </li>
        ))}
      </ul>
      <ErrorText>{error}</ErrorText>
    </Card>
  );
}
