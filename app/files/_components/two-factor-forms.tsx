'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { QrCode } from '@/app/_components/client-ui';
import { Button, ErrorText, Field } from '@/app/_components/ui';
import { ApiError, callOperation } from '@/lib/client/api';
import { assertPasskey, describePasskeyError } from '@/lib/client/passkeys';
import { useDescribeError } from '@/lib/client/error-text';

/** The session a finished sign-in answers (login, second factor, enrolment). */
export type SignedIn = { role: 'admin' | 'member'; user: import('@/lib/contract/dtos').UserDto | null };

type SecurityT = ReturnType<typeof useTranslations<'security'>>;

function codeError(err: unknown, t: SecurityT, describeError: (err: unknown) => string): string {
  if (err instanceof ApiError && err.code === 'wrong_code') return t('wrongCode');
  if (err instanceof ApiError && err.code === 'rate_limited') return t('tooManyCodes');
  if (err instanceof ApiError && err.code === 'unauthenticated') return t('signInExpired');
  return describeError(err);
}

/** The second step of a sign-in: a code from the authenticator app, or a recovery code. */
export function SecondFactorForm({ challenge, onSignedIn, onCancel }: { challenge: string; onSignedIn: (s: SignedIn) => void; onCancel: () => void }) {
  const describeError = useDescribeError();
  const t = useTranslations('security');
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      const r = await callOperation('loginSecondFactor', { body: recovery ? { challenge, recovery_code: code } : { challenge, code: code.replace(/\s/g, '') } });
      onSignedIn({ role: r.role, user: r.user });
    } catch (err) {
      setError(codeError(err, t, describeError));
    } finally {
      setBusy(false);
    }
  }
  async function withPasskey() {
    setBusy(true);
    setError('');
    try {
      const r = await callOperation('loginSecondFactor', { body: { challenge, response: await assertPasskey('second_factor', challenge) } });
      onSignedIn({ role: r.role, user: r.user });
    } catch (err) {
      setError(describePasskeyError(err) ?? (err instanceof ApiError && err.code === 'conflict' ? t('noPasskey') : codeError(err, t, describeError)));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="space-y-4" onSubmit={(e) => void submit(e)}>
      <h2 className="text-base font-semibold">{t('twoFactorHeading')}</h2>
      {recovery ? (
        <Field key="recovery" label={t('recoveryCode')} name="recovery_code" autoComplete="off" required value={code} onChange={(e) => setCode(e.target.value)} hint={t('recoveryCodeHint')} />
      ) : (
        <Field key="code" label={t('authenticatorCode')} name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]{6,7}" required value={code} onChange={(e) => setCode(e.target.value)} />
      )}
      <Button type="submit" disabled={busy} className="w-full">
        {busy ? t('pleaseWait') : t('verify')}
      </Button>
      <Button type="button" variant="secondary" disabled={busy} className="w-full" onClick={() => void withPasskey()}>
        {t('usePasskeyInstead')}
      </Button>
      <div className="flex justify-between text-sm">
        <button type="button" className="underline max-sm:min-h-11" onClick={() => { setRecovery(!recovery); setCode(''); setError(''); }}>
          {recovery ? t('useAppCode') : t('useRecoveryCode')}
        </button>
        <button type="button" className="underline max-sm:min-h-11" onClick={onCancel}>
          {t('back')}
        </button>
      </div>
      <ErrorText>{error}</ErrorText>
    </form>
  );
}

/** The recovery codes, shown once after enabling: the person saves them before going on. */
export function RecoveryCodes({ codes, onDone, doneLabel }: { codes: string[]; onDone: () => void; doneLabel?: string }) {
  const t = useTranslations('security');
  return (
    <div className="space-y-3">
      <p className="text-sm">{t('recoveryIntro')}</p>
      <ul aria-label={t('recoveryCodes')} className="grid grid-cols-2 gap-1 rounded-md bg-zinc-100 p-3 font-mono text-sm dark:bg-zinc-800">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <Button onClick={onDone} className="w-full">
        {doneLabel ?? t('savedThem')}
      </Button>
    </div>
  );
}

/**
 * Setting up TOTP: the QR code and the secret, then a code from the app turns it on and the
 * recovery codes are shown once. `challenge`: a sign-in that must enrol first (REQUIRE_2FA);
 * without it, the signed-in member's Settings.
 */
export function TotpSetup({ challenge, onEnabled, onCancel }: { challenge?: string; onEnabled: (r: { recovery_codes: string[]; session: SignedIn | null }) => void; onCancel?: () => void }) {
  const describeError = useDescribeError();
  const t = useTranslations('security');
  const [setup, setSetup] = useState<{ secret: string; otpauth_url: string } | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    callOperation('totpSetup', { body: challenge ? { challenge } : {} }).then(
      (r) => live && setSetup(r),
      (err: unknown) => live && setError(codeError(err, t, describeError)),
    );
    return () => {
      live = false;
    };
    // One setup (one secret) per sign-in: the translator only words a failure, it is no reason to start again.
  }, [challenge]);
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      const r = await callOperation('totpEnable', { body: { code: code.replace(/\s/g, ''), ...(challenge ? { challenge } : {}) } });
      onEnabled({ recovery_codes: r.recovery_codes, session: r.role && r.user !== undefined ? { role: r.role, user: r.user } : null });
    } catch (err) {
      setError(codeError(err, t, describeError));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="space-y-4" onSubmit={(e) => void submit(e)}>
      <p className="text-sm">{t('scanIntro')}</p>
      {setup ? (
        <div className="flex flex-col items-center gap-2">
          <QrCode text={setup.otpauth_url} size={176} alt={t('qrAlt')} />
          <p className="text-center text-sm">
            {t.rich('enterKey', {
              secret: setup.secret,
              code: (chunks) => (
                <code data-testid="totp-secret" dir="ltr" className="break-all font-mono">
                  {chunks}
                </code>
              ),
            })}
          </p>
        </div>
      ) : null}
      <Field label={t('appCode')} name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]{6,7}" required value={code} onChange={(e) => setCode(e.target.value)} />
      <div className="flex gap-2">
        <Button type="submit" disabled={busy || !setup} className="flex-1">
          {busy ? t('pleaseWait') : t('turnOn')}
        </Button>
        {onCancel ? (
          <Button type="button" variant="secondary" onClick={onCancel}>
            {t('cancel')}
          </Button>
        ) : null}
      </div>
      <ErrorText>{error}</ErrorText>
    </form>
  );
}
