'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { ltrItems, richTags } from '@/app/_components/ui';
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

/** The files a zip held that were left out: the first three, and how many more, as a list in the reader's language. */
export function ZipSkipped({ names }: { names: string[] }) {
  const t = useTranslations('sites');
  const format = useFormatter();
  const list = () =>
    format.list([...ltrItems(names.slice(0, 3)), ...(names.length > 3 ? [<span key="more">{t('zipSkippedMore', { count: names.length - 3 })}</span>] : [])], { type: 'conjunction' });
  return (
    <p className="text-subtle" data-testid="site-zip-skipped">
      {t.rich('zipSkipped', { count: names.length, names: list })}
    </p>
  );
}
