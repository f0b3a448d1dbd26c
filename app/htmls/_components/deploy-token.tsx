'use client';

import { useEffect, useState } from 'react';
import { CopyButton, Dialog } from '@/app/_components/client-ui';
import { Button, ErrorText } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { describeError } from '@/lib/client/format';
import { ciDeployCommand } from '@/lib/client/integrations';
import { onAsync } from '@/lib/client/on-async';

/**
 * "Deploy token": a sites:deploy:<slug> access token for a CI job, shown once with the job's
 * one command (docs/ci-deploy.md has whole GitHub Actions, GitLab CI and Forgejo jobs).
 */
export function DeployTokenButton({ slug }: { slug: string }) {
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [origin, setOrigin] = useState('');
  useEffect(() => setOrigin(window.location.origin), []);

  async function mint() {
    setError('');
    try {
      const made = await callOperation('createToken', { body: { name: `Deploy ${slug}`, scopes: [`sites:deploy:${slug}`], expires_at: null } });
      setSecret(made.secret);
    } catch (err) {
      setError(describeError(err));
    }
  }
  const command = ciDeployCommand(origin, slug);
  return (
    <>
      <Button variant="secondary" onClick={onAsync(mint)}>
        Deploy token
      </Button>
      <ErrorText>{error}</ErrorText>
      <Dialog open={secret !== null} onClose={() => setSecret(null)} title={`Deploy token for /p/${slug}/`}>
        <div className="space-y-3 text-sm">
          <p>It deploys, lists deploys of and rolls back this project only. Store it as the CI secret HTMLS_TOKEN — it is not shown again:</p>
          <code data-testid="deploy-token-secret" className="block break-all rounded bg-zinc-100 p-2 font-mono dark:bg-zinc-800">
            {secret}
          </code>
          <CopyButton text={secret ?? ''} label="Copy token" />
          <p>The job&apos;s deploy step, after the build:</p>
          <pre className="overflow-x-auto whitespace-pre-wrap break-all rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-800">{command}</pre>
          <p className="text-muted">
            Or, where the htmls CLI is installed: <code>HTMLS_URL={origin} htmls deploy dist --slug {slug} --replace</code>. Whole jobs for GitHub Actions, GitLab CI and Forgejo: docs/ci-deploy.md. Revoke it in /files → Access tokens.
          </p>
          <div className="flex justify-end">
            <Button onClick={() => setSecret(null)}>Done</Button>
          </div>
        </div>
      </Dialog>
    </>
  );
}
