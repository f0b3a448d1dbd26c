'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useCallback, type ReactNode } from 'react';
import { ErrorTextContext } from '@/lib/client/error-text';
import { describeError } from '@/lib/client/format';

/**
 * Gives the components below describeError in the page's language (the `errors` namespace,
 * which the page's NextIntlClientProvider must carry): what useApiData, usePagedList and the
 * console's own actions show when the API refuses.
 */
export function ErrorTextProvider({ children }: { children: ReactNode }) {
  const t = useTranslations('errors');
  const locale = useLocale();
  const describe = useCallback(
    // The keys are built from the error's code (lib/client/format.ts declares them).
    (err: unknown) => describeError(err, { t: (key, values) => t(key as Parameters<typeof t>[0], values), english: locale === 'en' }),
    [t, locale],
  );
  return <ErrorTextContext.Provider value={describe}>{children}</ErrorTextContext.Provider>;
}
