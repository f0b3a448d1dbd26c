'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useState, type ReactNode } from 'react';
import { bdiTag, Button, Card, codeTag, ErrorText, SuccessText } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { useDescribeError } from '@/lib/client/error-text';
import { onAsync } from '@/lib/client/on-async';
import { markSsoStarted, ssoErrorKey, startSsoHref, takeSsoResult } from '@/lib/client/sso-handoff';
import type { UserDto } from '@/lib/contract/dtos';

type State = { kind: 'loading' } | { kind: 'signed-out'; sso: string | null } | { kind: 'signed-in'; user: UserDto } | { kind: 'approved' };

/**
 * Shows the code the terminal printed; once the member is signed in here (single sign-on, or
 * the console's session), approving hands the waiting `htmls login --sso` a session of theirs.
 */
export function CliLogin() {
  const [code, setCode] = useState('');
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [error, setError] = useState('');
  /** Why the single sign-on that brought the member back did not work (its code). */
  const [ssoError, setSsoError] = useState<string | null>(null);
  const t = useTranslations('cliLogin');
  // i18n-keys: ssoErrors.*
  const ssoErrors = useTranslations('ssoErrors');
  const describeError = useDescribeError();

  useEffect(() => {
    const fromUrl = new URL(window.location.href).searchParams.get('code') ?? '';
    setCode(fromUrl);
    const sso = takeSsoResult();
    if (sso.error) setSsoError(sso.error);
    Promise.all([callOperation('me').catch(() => null), callOperation('authMethods').catch(() => null)])
      .then(([me, methods]) => {
        if (me?.user) setState({ kind: 'signed-in', user: me.user });
        else setState({ kind: 'signed-out', sso: methods?.oidc?.name ?? null });
      })
      .catch(() => setState({ kind: 'signed-out', sso: null }));
  }, []);

  async function approve() {
    setError('');
    setSsoError(null);
    try {
      await callOperation('approveCliHandoff', { body: { user_code: code } });
      setState({ kind: 'approved' });
    } catch (err) {
      setError(describeError(err));
    }
  }

  const returnTo = `/cli-login?code=${encodeURIComponent(code)}`;
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4">
      <Card>
        <h1 className="text-xl font-semibold">{t('title')}</h1>
        <p className="mt-2 text-sm text-muted">{t.rich('onlyIf', { command: 'htmls login --sso', code: codeTag })}</p>
        <p className="mt-3 text-center font-mono text-2xl tracking-widest" dir="ltr" data-testid="handoff-code">
          {code || '—'}
        </p>
        <div className="mt-4 space-y-3 text-sm">
          {state.kind === 'signed-out' ? (
            state.sso ? (
              <a className="inline-block rounded-md bg-indigo-600 px-4 py-2 font-medium text-white" href={startSsoHref(returnTo)} onClick={() => markSsoStarted()}>
                {t('signInWith', { provider: state.sso })}
              </a>
            ) : (
              <p>{t.rich('signInFirst', { path: '/files', link: (chunks: ReactNode) => <a href="/files" dir="ltr">{chunks}</a> })}</p>
            )
          ) : null}
          {state.kind === 'signed-in' ? (
            <>
              <p>{t.rich('willSignInAs', { username: state.user.username, b: (chunks: ReactNode) => <strong>{bdiTag(chunks)}</strong> })}</p>
              <Button onClick={onAsync(approve)} disabled={!code}>
                {t('approve')}
              </Button>
            </>
          ) : null}
          <SuccessText>{state.kind === 'approved' ? t('approved') : null}</SuccessText>
          <ErrorText>{error || (ssoError ? ssoErrors(ssoErrorKey(ssoError)) : '')}</ErrorText>
        </div>
      </Card>
    </main>
  );
}
