'use client';

import { useEffect, useState } from 'react';
import { Button, Card, ErrorText, SuccessText } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { onAsync } from '@/lib/client/on-async';
import { describeError } from '@/lib/client/format';
import { describeSsoError, markSsoStarted, startSsoHref, takeSsoResult } from '@/lib/client/sso-handoff';
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

  useEffect(() => {
    const fromUrl = new URL(window.location.href).searchParams.get('code') ?? '';
    setCode(fromUrl);
    const sso = takeSsoResult();
    if (sso.error) setError(describeSsoError(sso.error));
    Promise.all([callOperation('me').catch(() => null), callOperation('authMethods').catch(() => null)])
      .then(([me, methods]) => {
        if (me?.user) setState({ kind: 'signed-in', user: me.user });
        else setState({ kind: 'signed-out', sso: methods?.oidc?.name ?? null });
      })
      .catch(() => setState({ kind: 'signed-out', sso: null }));
  }, []);

  async function approve() {
    setError('');
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
        <h1 className="text-xl font-semibold">Sign in the command line</h1>
        <p className="mt-2 text-sm text-muted">
          Only go on if you just ran <code>htmls login --sso</code> yourself, and your terminal shows this code:
        </p>
        <p className="mt-3 text-center font-mono text-2xl tracking-widest" data-testid="handoff-code">
          {code || '—'}
        </p>
        <div className="mt-4 space-y-3 text-sm">
          {state.kind === 'signed-out' ? (
            state.sso ? (
              <a className="inline-block rounded-md bg-indigo-600 px-4 py-2 font-medium text-white" href={startSsoHref(returnTo)} onClick={() => markSsoStarted()}>
                Sign in with {state.sso}
              </a>
            ) : (
              <p>
                Sign in at <a href="/files">/files</a> first, then open this page again.
              </p>
            )
          ) : null}
          {state.kind === 'signed-in' ? (
            <>
              <p>
                The command line will be signed in as <strong>{state.user.username}</strong>.
              </p>
              <Button onClick={onAsync(approve)} disabled={!code}>
                Approve
              </Button>
            </>
          ) : null}
          <SuccessText>{state.kind === 'approved' ? 'Approved. Go back to your terminal.' : null}</SuccessText>
          <ErrorText>{error}</ErrorText>
        </div>
      </Card>
    </main>
  );
}
