import 'server-only';
import { publishDeployRecords, type NewHostedFile, type UploadedRules } from '@/db/queries/deploys';
import { type ProjectPatch } from '@/db/queries/projects';
import { randomString } from '../auth/crypto';
import { AppError } from '../errors';
import type { Runtime } from '../runtime';
import { runDeletions } from '../storage/gc';
import { releasableKeys } from './release-objects';

export interface DeployInput {
  slug: string;
  /** Keep the live deploy's other files (a file at the same path is replaced). */
  append: boolean;
  /** A new full deploy of an existing project: only the uploaded files. */
  replace: boolean;
  settings: Omit<ProjectPatch, 'activeDeployId'>;
  createdBy: string;
  files: NewHostedFile[];
  /** The upload's `_redirects` / `_headers`, parsed (lib/hosting/site-rules.ts). */
  rules: UploadedRules;
  /** The upload's guard rows, dropped in the same transaction. */
  guards: string[];
}

/**
 * Makes a deploy live in one transaction, after all its bytes are stored: the deploy and its
 * file rows, the project's pointer to it, and the pruning of deploys past DEPLOY_HISTORY with
 * the objects no kept deploy uses. Visitors see the previous deploy until the commit, then
 * this one, never a mix.
 */
export async function publishDeploy(rt: Runtime, input: DeployInput): Promise<string> {
  const id = randomString(12);
  const { slug } = input;
  const gcIds = await publishDeployRecords(
    rt.db,
    { id, slug, createdBy: input.createdBy, files: input.files, rules: input.rules, append: input.append, mayExist: input.append || input.replace, settings: input.settings, keep: rt.env.deployHistory, guards: input.guards },
    (orphans, batchesInUse) => releasableKeys(slug, orphans, batchesInUse),
  );
  if (gcIds === 'slug-taken') throw new AppError('slug_taken', `The slug "${slug}" is already used; pick another, append to it or replace it`);
  await runDeletions(rt, gcIds).catch(() => {});
  return id;
}
