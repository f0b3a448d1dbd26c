'use client';

import { useCallback, useEffect, useState } from 'react';
import { ApiError, callOperation } from '@/lib/client/api';
import { forgetConsoleSessions, hasConsoleSession } from '@/lib/client/console-session';
import { AdminConsole } from './admin-console';
import { AdminLogin } from './admin-login';

/**
 * /htmls: the login or the console, decided here with the API rather than by the server page
 * from the cookie (a same-site hosted page can swap the cookie, not this origin's storage:
 * lib/client/console-session.ts). Only the Admin Token's own session opens it, not an
 * admin-role member.
 */
export function HtmlsApp({ hostedBase }: { hostedBase: string | null }) {
  const [signedIn, setSignedIn] = useState<boolean | undefined>(undefined);

  const check = useCallback(async () => {
    if (!hasConsoleSession('admin')) return setSignedIn(false);
    try {
      const me = await callOperation('me');
      setSignedIn(me.role === 'admin' && me.user === null);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) forgetConsoleSessions();
      setSignedIn(false);
    }
  }, []);
  useEffect(() => {
    void check();
  }, [check]);

  if (signedIn === undefined) return <main aria-busy="true" className="min-h-screen" />;
  if (!signedIn) return <AdminLogin onSignedIn={() => setSignedIn(true)} />;
  return <AdminConsole hostedBase={hostedBase} onSignedOut={() => setSignedIn(false)} />;
}
