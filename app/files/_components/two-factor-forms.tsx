'use client';

import { useEffect, useState } from 'react';
import { QrCode } from '@/app/_components/client-ui';
import { Button, ErrorText, Field } from '@/app/_components/ui';
import { ApiError, callOperation } from '@/lib/client/api';
import { describeError } from '@/lib/client/format';
import { assertPasskey, describePasskeyError } from '@/lib/client/passkeys';

/** The session a finished sign-in answers (login, second factor, enrolment). */
export type SignedIn = { role: 'admin' | 'member'; user: import('@/lib/contract/dtos').UserDto | null };

function codeError(err: unknown): string {
  if (err instanceof ApiError && err.code === 'wrong_code') return 'That code is not right, or it was used already. Wait for the next one.';
  if (err instanceof ApiError && err.code === 'rate_limited') return 'Too many wrong codes. Sign in again in a few minutes.';
  if (err instanceof ApiError && err.code === 'unauthenticated') return 'This sign-in has expired. Sign in again.';
  return describeError(err);
}

/** The second step of a sign-in: a code from the authenticator app, or a recovery code. */
export function SecondFactorForm({ challenge, onSignedIn, onCancel }: { challenge: string; onSignedIn: (s: SignedIn) => void; onCancel: () => void }) {
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
      setError(codeError(err));
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
      setError(describePasskeyError(err) ?? (err instanceof ApiError && err.code === 'conflict' ? 'This account has no passkey.' : codeError(err)));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="space-y-4" onSubmit={(e) => void submit(e)}>
      <h2 className="text-base font-semibold">Two-factor sign-in</h2>
      {recovery ? (
        <Field key="recovery" label="Recovery code" name="recovery_code" autoComplete="off" required value={code} onChange={(e) => setCode(e.target.value)} hint="One of the ten codes you saved; each works once" />
      ) : (
        <Field key="code" label="Code from your authenticator app" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]{6,7}" required value={code} onChange={(e) => setCode(e.target.value)} />
      )}
      <Button type="submit" disabled={busy} className="w-full">
        {busy ? 'Please wait…' : 'Verify'}
      </Button>
      <Button type="button" variant="secondary" disabled={busy} className="w-full" onClick={() => void withPasskey()}>
        Use a passkey instead
      </Button>
      <div className="flex justify-between text-sm">
        <button type="button" className="underline max-sm:min-h-11" onClick={() => { setRecovery(!recovery); setCode(''); setError(''); }}>
          {recovery ? 'Use a code from the app' : 'Use a recovery code'}
        </button>
        <button type="button" className="underline max-sm:min-h-11" onClick={onCancel}>
          Back
        </button>
      </div>
      <ErrorText>{error}</ErrorText>
    </form>
  );
}

/** The recovery codes, shown once after enabling: the person saves them before going on. */
export function RecoveryCodes({ codes, onDone, doneLabel = 'I saved them' }: { codes: string[]; onDone: () => void; doneLabel?: string }) {
  return (
    <div className="space-y-3">
      <p className="text-sm">Two-factor sign-in is on. Save these recovery codes somewhere safe: each signs you in once if you lose your phone. They are shown only now.</p>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-1 rounded-md bg-zinc-100 p-3 font-mono text-sm dark:bg-zinc-800">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <Button onClick={onDone} className="w-full">
        {doneLabel}
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
  const [setup, setSetup] = useState<{ secret: string; otpauth_url: string } | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    callOperation('totpSetup', { body: challenge ? { challenge } : {} }).then(
      (r) => live && setSetup(r),
      (err: unknown) => live && setError(codeError(err)),
    );
    return () => {
      live = false;
    };
  }, [challenge]);
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      const r = await callOperation('totpEnable', { body: { code: code.replace(/\s/g, ''), ...(challenge ? { challenge } : {}) } });
      onEnabled({ recovery_codes: r.recovery_codes, session: r.role && r.user !== undefined ? { role: r.role, user: r.user } : null });
    } catch (err) {
      setError(codeError(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="space-y-4" onSubmit={(e) => void submit(e)}>
      <p className="text-sm">Scan this code with an authenticator app (such as Aegis, 2FAS, Google Authenticator or 1Password), then type the 6-digit code it shows.</p>
      {setup ? (
        <div className="flex flex-col items-center gap-2">
          <QrCode text={setup.otpauth_url} size={176} alt="QR code to add this account to an authenticator app" />
          <p className="text-center text-sm">
            Or enter this key: <code data-testid="totp-secret" className="break-all font-mono">{setup.secret}</code>
          </p>
        </div>
      ) : null}
      <Field label="Code from the app" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]{6,7}" required value={code} onChange={(e) => setCode(e.target.value)} />
      <div className="flex gap-2">
        <Button type="submit" disabled={busy || !setup} className="flex-1">
          {busy ? 'Please wait…' : 'Turn on'}
        </Button>
        {onCancel ? (
          <Button type="button" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
      <ErrorText>{error}</ErrorText>
    </form>
  );
}
