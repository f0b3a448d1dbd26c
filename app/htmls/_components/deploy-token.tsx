'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { CopyButton, Dialog } from '@/app/_components/client-ui';
import { Button, codeTag, ErrorText } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { useDescribeError } from '@/lib/client/error-text';
import { ciDeployCommand } from '@/lib/client/integrations';
import { onAsync } from '@/lib/client/on-async';

/**
 * "Deploy token": a sites:deploy:<slug> access token for a CI job, shown once with the job's
 * one command (docs/ci-deploy.md has whole GitHub Actions, GitLab CI and Forgejo jobs).
 */
export function DeployTokenButton({ slug }: { slug: string }) {
  const t = useTranslations('projects');
  const describeError = useDescribeError();
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [origin, setOrigin] = useState('');
  useEffect(() => setOrigin(window.location.origin), []);

  async function mint() {
    setError('');
    try {
      const made = await callOperation('createToken', { body: { name: t('deployTokenName', { slug }), scopes: [`sites:deploy:${slug}`], expires_at: null } });
      setSecret(made.secret);
    } catch (err) {
      setError(describeError(err));
    }
  }
  const command = ciDeployCommand(origin, slug);
  return (
    <>
      <Button variant="secondary" onClick={onAsync(mint)}>
        {t('deployToken')}
      </Button>
      <ErrorText>{error}</ErrorText>
      <Dialog open={secret !== null} onClose={() => setSecret(null)} title={t('deployTokenTitle', { slug })}>
        <div className="space-y-3 text-sm">
          <p>{t.rich('deployTokenIntro', { secret: 'HTMLS_TOKEN', code: codeTag })}</p>
          <code data-testid="deploy-token-secret" dir="ltr" className="block break-all rounded bg-zinc-100 p-2 font-mono dark:bg-zinc-800">
            {secret}
          </code>
          <CopyButton text={secret ?? ''} label={t('copyToken')} copiedLabel={t('copied')} promptLabel={t('copyPrompt')} />
          <p>{t('deployStep')}</p>
          <pre dir="ltr" className="overflow-x-auto whitespace-pre-wrap break-all rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-800">{command}</pre>
          <p className="text-muted">
            {t.rich('deployCli', {
              command: `HTMLS_URL=${origin} htmls deploy dist --slug ${slug} --replace`,
              doc: 'docs/ci-deploy.md',
              code: codeTag,
            })}
          </p>
          <div className="flex justify-end">
            <Button onClick={() => setSecret(null)}>{t('done')}</Button>
          </div>
        </div>
      </Dialog>
    </>
  );
}
