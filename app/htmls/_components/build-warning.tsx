'use client';

import { useTranslations } from 'next-intl';
import { richTags } from '@/app/_components/ui';
import { warningSentences, type UploadWarning } from '@/lib/client/upload-warnings';

/**
 * One build warning in the reader's language, from the parts the server sends beside its
 * sentence; a code this console does not know shows the server's own sentence, in English.
 */
export function BuildWarning({ warning: w }: { warning: UploadWarning }) {
  const t = useTranslations('sites');
  const sentences = warningSentences(w);
  const className = 'text-amber-800 dark:text-amber-300';
  if (!sentences) {
    return (
      <p lang="en" dir="auto" className={className} data-testid="site-warning" data-code={w.code}>
        {w.message}
      </p>
    );
  }
  return (
    <p className={className} data-testid="site-warning" data-code={w.code}>
      {sentences.map((s, i) => (
        <span key={s.key}>
          {i > 0 ? ' ' : null}
          {t.rich(s.key, { ...s.values, ...richTags })}
        </span>
      ))}
    </p>
  );
}
