'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useId, useState } from 'react';
import { Button, buttonClass, Card, ErrorText, Field } from '@/app/_components/ui';
import { ApiError, callOperation } from '@/lib/client/api';
import { useDescribeError } from '@/lib/client/error-text';
import { assertPasskey, describePasskeyError } from '@/lib/client/passkeys';
import { markSsoStarted, startSsoHref, type SsoSecondFactor } from '@/lib/client/sso-handoff';
import type { AuthMethods } from '@/lib/contract/dtos';
import type { BodyOf } from '@/lib/contract/operations';
import { onAsync } from '@/lib/client/on-async';
import type { FilesSession } from './types';
import { RecoveryCodes, SecondFactorForm, TotpSetup } from './two-factor-forms';

type Tab = 'login' | 'register' | 'admin';
const ALL_TABS: { id: Tab }[] = [{ id: 'login' }, { id: 'register' }, { id: 'admin' }];

type SignIn = 'login' | 'register';

export function AuthTabs({ onSignedIn, notice = '', secondFactor = null }: { onSignedIn: (s: FilesSession) => void; notice?: string; secondFactor?: SsoSecondFactor | null }) {
  const t = useTranslations('files');
  const describeError = useDescribeError();
  const [methods, setMethods] = useState<AuthMethods | null>(null);
  const [tab, setTab] = useState<Tab>('login');
  const [error, setError] = useState(notice);
  useEffect(() => {
    callOperation('authMethods')
      .then((m) => {
        setMethods(m);
        // OIDC_ONLY: members sign in with the provider; the Admin Token tab stays (the emergency credential).
        if (!m.password) setTab('admin');
      })
      .catch(() => setMethods(null));
  }, []);
  const TABS = methods && !methods.password ? ALL_TABS.filter((t) => t.id === 'admin') : ALL_TABS;
  const [busy, setBusy] = useState(false);
  /** A sign-in waiting for its second factor, or for enrolment (REQUIRE_2FA); then the recovery codes of one. */
  const [step, setStep] = useState<{ kind: 'required' | 'enroll'; challenge: string } | null>(secondFactor);
  const [enrolled, setEnrolled] = useState<{ codes: string[]; session: FilesSession } | null>(null);
  const baseId = useId();

  async function run(body: BodyOf<SignIn>, op: SignIn) {
    setBusy(true);
    setError('');
    try {
      const r = await callOperation(op, { body });
      if ('second_factor' in r) setStep({ kind: r.second_factor, challenge: r.challenge });
      else onSignedIn({ role: 'role' in r ? r.role : r.user.role, user: r.user });
    } catch (err) {
      setError(describe(err, t, describeError));
    } finally {
      setBusy(false);
    }
  }

  /** Sign in with a passkey (a discoverable credential: no username to type). */
  async function signInWithPasskey() {
    setBusy(true);
    setError('');
    try {
      const r = await callOperation('passkeyLogin', { body: { response: await assertPasskey('login') } });
      onSignedIn({ role: r.role, user: r.user });
    } catch (err) {
      setError(describePasskeyError(err) ?? (err instanceof ApiError && err.status === 401 ? t('auth.unknownPasskey') : describe(err, t, describeError)));
    } finally {
      setBusy(false);
    }
  }

  function onKeyDown(e: React.KeyboardEvent, index: number) {
    const delta = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!delta) return;
    const next = TABS[(index + delta + TABS.length) % TABS.length];
    setTab(next.id);
    document.getElementById(`${baseId}-${next.id}`)?.focus();
  }

  if (enrolled) {
    return (
      <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4">
        <Card>
          <h1 className="text-xl font-semibold">{t('auth.heading')}</h1>
          <div className="mt-4">
            <RecoveryCodes codes={enrolled.codes} onDone={() => onSignedIn(enrolled.session)} doneLabel={t('auth.savedContinue')} />
          </div>
        </Card>
      </main>
    );
  }
  if (step) {
    const back = () => setStep(null);
    return (
      <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4">
        <Card>
          <h1 className="text-xl font-semibold">{t('auth.heading')}</h1>
          <div className="mt-4">
            {step.kind === 'required' ? (
              <SecondFactorForm challenge={step.challenge} onSignedIn={onSignedIn} onCancel={back} />
            ) : (
              <>
                <h2 className="text-base font-semibold">{t('auth.enrollHeading')}</h2>
                <p className="mt-1 text-sm">{t('auth.enrollText')}</p>
                <div className="mt-4">
                  <TotpSetup challenge={step.challenge} onCancel={back} onEnabled={(r) => (r.session ? setEnrolled({ codes: r.recovery_codes, session: r.session }) : back())} />
                </div>
              </>
            )}
          </div>
        </Card>
      </main>
    );
  }

  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4">
      <Card>
        <h1 className="text-xl font-semibold">{t('auth.heading')}</h1>
        {methods?.oidc ? (
          <a href={startSsoHref()} onClick={markSsoStarted} className={`mt-4 ${buttonClass('primary')} w-full`}>
            {t('auth.ssoSignIn', { provider: methods.oidc.name })}
          </a>
        ) : null}
        <div role="tablist" aria-label={t('auth.signIn')} className="mt-4 flex gap-1 rounded-lg bg-zinc-100 p-1 dark:bg-zinc-800">
          {TABS.map((item, i) => (
            <button
              key={item.id}
              id={`${baseId}-${item.id}`}
              role="tab"
              aria-selected={tab === item.id}
              tabIndex={tab === item.id ? 0 : -1}
              onKeyDown={(e) => onKeyDown(e, i)}
              onClick={() => {
                setTab(item.id);
                setError('');
              }}
              className={`flex-1 rounded-md px-3 py-1.5 text-sm font-medium max-sm:min-h-11 ${tab === item.id ? 'bg-white shadow dark:bg-zinc-900' : 'text-subtle'}`}
            >
              {/* i18n-keys: files.auth.tabs.* */}
              {t(`auth.tabs.${item.id}`)}
            </button>
          ))}
        </div>
        <div role="tabpanel" aria-labelledby={`${baseId}-${tab}`} className="mt-6">
          {tab === 'login' ? (
            <>
              <CredentialsForm key="login" submitLabel={t('auth.tabs.login')} busy={busy} onSubmit={onAsync((v) => run(v, 'login'))} />
              {methods?.passkeys ? (
                <Button type="button" variant="secondary" disabled={busy} className="mt-3 w-full" onClick={onAsync(signInWithPasskey)}>
                  {t('auth.passkeySignIn')}
                </Button>
              ) : null}
            </>
          ) : tab === 'register' ? (
            <CredentialsForm key="register" register submitLabel={t('auth.createAccount')} busy={busy} onSubmit={onAsync((v) => run(v, 'register'))} />
          ) : (
            <TokenForm busy={busy} onSubmit={onAsync((token) => run({ token }, 'login'))} />
          )}
          <div className="mt-4">
            <ErrorText>{error}</ErrorText>
          </div>
        </div>
      </Card>
    </main>
  );
}

/** A refused sign-in: a 401 is the credentials (not a session that ended); the rest as the console says them. */
function describe(err: unknown, t: (key: 'auth.wrongCredentials') => string, describeError: (err: unknown) => string): string {
  if (err instanceof ApiError && err.status === 401) return t('auth.wrongCredentials');
  return describeError(err);
}

function CredentialsForm({
  register,
  submitLabel,
  busy,
  onSubmit,
}: {
  register?: boolean;
  submitLabel: string;
  busy: boolean;
  onSubmit: (v: { username: string; password: string; display_name?: string }) => void;
}) {
  const t = useTranslations('files');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [displayName, setDisplayName] = useState('');
  return (
    <form
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(register ? { username, password, display_name: displayName } : { username, password });
      }}
    >
      <Field label={t('auth.username')} name="username" autoComplete="username" required value={username} onChange={(e) => setUsername(e.target.value)} hint={register ? t('auth.usernameHint') : undefined} />
      {register ? <Field label={t('auth.displayName')} name="display_name" autoComplete="name" value={displayName} onChange={(e) => setDisplayName(e.target.value)} /> : null}
      <Field label={t('auth.password')} name="password" type="password" autoComplete={register ? 'new-password' : 'current-password'} required minLength={register ? 8 : undefined} value={password} onChange={(e) => setPassword(e.target.value)} hint={register ? t('auth.passwordHint', { min: 8 }) : undefined} />
      <Button type="submit" disabled={busy} className="w-full">
        {busy ? t('auth.wait') : submitLabel}
      </Button>
    </form>
  );
}

function TokenForm({ busy, onSubmit }: { busy: boolean; onSubmit: (token: string) => void }) {
  const t = useTranslations('files');
  const [token, setToken] = useState('');
  return (
    <form
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(token);
      }}
    >
      <Field label={t('auth.adminToken')} name="token" type="password" autoComplete="current-password" required value={token} onChange={(e) => setToken(e.target.value)} />
      <Button type="submit" disabled={busy} className="w-full">
        {busy ? t('auth.wait') : t('auth.adminSignIn')}
      </Button>
    </form>
  );
}
