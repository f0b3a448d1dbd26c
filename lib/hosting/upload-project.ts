import 'server-only';
import { Readable } from 'node:stream';
import { createReadStream } from 'node:fs';
import { projectExists } from '@/db/queries/projects';
import type { Principal } from '../auth/principal';
import { limitPasswordSetting, setterKey } from '../auth/password-setting';
import { hashPassword } from '../auth/passwords';
import { assertDeployScope, assertTokenScope } from '../auth/scopes';
import { AppError, badRequest } from '../errors';
import { pathKey } from '../paths/relative-path';
import type { Runtime } from '../runtime';
import { HOSTED_LIMITS } from './limits';
import { getProjectDtoOrThrow } from './list-projects';
import type { ProjectDto } from './project-dto';
import { publishDeploy } from './publish-deploy';
import { readMultipart } from './read-multipart';
import { buildWarnings, type BuildFacts, type HostedPlace, type UploadWarning } from './build-check';
import { assertSlug, randomSlug } from './slug';
import { StagedUpload } from './stage-files';
import { HEADERS_FILE, parseHeaders, parseRedirects, REDIRECTS_FILE, RULE_LIMITS } from './site-rules';
import { readFirstBytes } from '../storage/read-first-bytes';
import type { NewHostedFile, UploadedRules } from '@/db/queries/deploys';
import { spoolZip, unpackZip, type SpooledZip } from './unpack-zip';

const FIELDS = ['slug', 'note', 'password', 'append', 'replace', 'spa', 'dotfiles'] as const;
type Field = (typeof FIELDS)[number];
/**
 * Fields that change the project's settings as PATCH /api/projects/:slug does, which needs the
 * `admin` scope: a `sites:deploy` token deploys files, it does not set them (issue 39, info).
 */
const SETTINGS = new Set<Field>(['password', 'dotfiles']);
/** Fields that decide where the files go: they must come before the first file. */
const LEADING = new Set<Field>(['slug', 'append', 'replace']);
const yes = (v: string | undefined) => v === 'true' || v === '1';

export interface UploadResult {
  project: ProjectDto;
  /** Entries of a zip left out as private (a folder upload's client leaves them home itself). */
  skipped: string[];
  /** Where this build will still break on this server's hosted origin (build-check.ts). */
  warnings: UploadWarning[];
}

/**
 * POST /api/upload: streams every file of a multipart form (or the entries of one .zip) into
 * the store under a fresh batch prefix, then publishes them as a new deploy in one
 * transaction. Until that commit nothing is visible; a failure deletes the batch (or, after
 * a crash, the janitor does). `place` is where the uploader's link to the project leads (its
 * warnings say what will break there).
 */
export async function uploadProject(rt: Runtime, req: Request, principal: Principal, place: HostedPlace): Promise<UploadResult> {
  const type = req.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(type)) throw badRequest('Send the files as multipart/form-data');
  if (!req.body) throw badRequest('The request has no body');
  const fields: Partial<Record<Field, string>> = {};
  const staged = new StagedUpload(rt);
  let sawFile = false;
  let zip: SpooledZip | null = null;
  let skipped: string[] = [];

  const start = async () => {
    if (!staged.slug) await staged.begin(await chooseSlug(rt, fields, principal));
  };
  const storeZipAsFile = async (z: SpooledZip) => {
    const path = staged.claim(z.name);
    await start();
    await staged.add(path, createReadStream(z.file));
  };

  try {
    await readMultipart(Readable.fromWeb(req.body as never), type, HOSTED_LIMITS.files, {
      field(name, value, afterFiles) {
        if (!(FIELDS as readonly string[]).includes(name)) return;
        if (LEADING.has(name as Field) && afterFiles) throw badRequest('Send the slug, append and replace fields before the files');
        if (SETTINGS.has(name as Field)) assertTokenScope(principal, 'admin', {});
        fields[name as Field] = value;
      },
      async file(stream, filename) {
        const first = !sawFile;
        sawFile = true;
        // A .zip alone is unpacked; so it is held aside until we know it is alone.
        if (first && /\.zip$/i.test(filename)) {
          zip = await spoolZip(stream, filename, HOSTED_LIMITS.totalBytes);
          return;
        }
        if (zip) {
          const held: SpooledZip = zip;
          zip = null;
          await storeZipAsFile(held).finally(() => held.remove());
        }
        const path = staged.claim(filename);
        await start();
        await staged.add(path, stream);
      },
      active: () => staged.active,
    });
    if (zip) {
      const held: SpooledZip = zip;
      zip = null;
      ({ skipped } = await unpackZip(held, staged, start, { includePrivate: yes(fields.dotfiles) }).finally(() => held.remove()));
    }
    if (staged.files.length === 0) throw badRequest('Choose at least one file to upload');
    await publish(rt, staged, fields, principal);
    const project = await getProjectDtoOrThrow(rt, staged.slug!);
    return { project, skipped, warnings: buildWarnings(shownFacts(staged), place, project.slug) };
  } catch (e) {
    const held = zip as SpooledZip | null;
    await held?.remove();
    await staged.discard();
    throw e;
  }
}

async function chooseSlug(rt: Runtime, fields: Partial<Record<Field, string>>, principal: Principal): Promise<string> {
  if (fields.slug) {
    const slug = assertSlug(fields.slug.trim());
    assertDeployScope(principal, slug);
    if (!yes(fields.append) && !yes(fields.replace) && (await projectExists(rt.db, slug))) {
      throw new AppError('slug_taken', `The slug "${slug}" is already used; pick another, append to it or replace it`);
    }
    return slug;
  }
  assertDeployScope(principal, null);
  let slug: string;
  do slug = randomSlug();
  while (await projectExists(rt.db, slug));
  return slug;
}

async function publish(rt: Runtime, staged: StagedUpload, fields: Partial<Record<Field, string>>, principal: Principal): Promise<void> {
  const { note, password } = fields;
  if (note !== undefined && note.length > HOSTED_LIMITS.noteChars) throw badRequest(`The note may have at most ${HOSTED_LIMITS.noteChars} characters`);
  if (password !== undefined && password.length > HOSTED_LIMITS.passwordChars) throw badRequest('The password is too long');
  if (yes(fields.append) && yes(fields.replace)) throw badRequest('Choose append or replace, not both');
  if (password) await limitPasswordSetting(rt, principal);
  const stripped = stripCommonFolder(staged.files.map((f) => f.path));
  const files = staged.files.map((f, i) => (stripped[i] === f.path ? f : { ...f, path: stripped[i], pathKey: pathKey(stripped[i]) }));
  const rules = await readSiteRules(rt, files);
  await publishDeploy(rt, {
    slug: staged.slug!,
    rules,
    append: yes(fields.append),
    replace: yes(fields.replace),
    settings: {
      ...(note !== undefined ? { note } : {}),
      ...(password ? { passwordHash: await hashPassword(password, setterKey(principal)) } : {}),
      ...(fields.spa !== undefined ? { spa: yes(fields.spa) } : {}),
      ...(fields.dotfiles !== undefined ? { allowDotfiles: yes(fields.dotfiles) } : {}),
    },
    createdBy: principal.kind === 'admin' ? 'admin' : principal.user.username,
    files,
    guards: staged.guards,
  });
}

/**
 * The upload's `_redirects` and `_headers` at the project's root, read back from the store and
 * checked before anything is published: a malformed line refuses the whole upload (400
 * invalid_site_rules, with the file and line). Parsed here once; requests use the stored form.
 */
async function readSiteRules(rt: Runtime, files: NewHostedFile[]): Promise<UploadedRules> {
  const rules: UploadedRules = {};
  for (const f of files) {
    if (f.path !== REDIRECTS_FILE && f.path !== HEADERS_FILE) continue;
    if (Number(f.size) > RULE_LIMITS.fileBytes) throw new AppError('invalid_site_rules', `${f.path} line 1: the file is larger than ${RULE_LIMITS.fileBytes} bytes`, {}, { file: f.path, line: 1 });
    const text = (await readFirstBytes(rt.storage, f.storageKey, Number(f.size))).toString('utf8');
    if (f.path === REDIRECTS_FILE) rules.redirects = parseRedirects(text);
    else rules.headers = parseHeaders(text);
  }
  return rules;
}

/** The build's facts with the paths the project has (its common top folder dropped), for the warnings. */
function shownFacts(staged: StagedUpload): BuildFacts {
  const paths = staged.files.map((f) => f.path);
  const stripped = stripCommonFolder(paths);
  const shown = new Map(paths.map((p, i) => [p, stripped[i]]));
  const name = (p: string | null) => (p === null ? null : (shown.get(p) ?? p));
  const f = staged.facts;
  return { rootRef: f.rootRef && { ...f.rootRef, file: name(f.rootRef.file)! }, noReferrer: name(f.noReferrer), rootWorker: name(f.rootWorker), router: name(f.router) };
}

/** A folder picked as a whole arrives as `site/…`: drop the top folder all files share. */
export function stripCommonFolder(paths: string[]): string[] {
  const first = paths[0]?.split('/')[0];
  const shared = paths.every((p) => p.includes('/') && p.split('/')[0] === first);
  return shared ? paths.map((p) => p.slice(first.length + 1)) : paths;
}
