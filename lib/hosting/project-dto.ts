import 'server-only';
import type { FileDto, ProjectDto, ProjectSummaryDto, DeployDto } from '../contract/dtos';
import type { ProjectSummaryRow } from '@/db/queries/lists';
import type { DeployRow, HostedFileRow, ProjectRow } from '@/db/schema';

// The response types live in the contract (clients import them from there).
export type { FileDto, ProjectDto, ProjectSummaryDto, DeployDto } from '../contract/dtos';

export function toFileDto(f: HostedFileRow): FileDto {
  return {
    id: f.id,
    slug: f.slug,
    path: f.path,
    size: Number(f.size),
    content_type: f.contentType,
    status: f.status,
    created_at: f.createdAt.toISOString(),
  };
}

function toSummary(p: ProjectRow, t: { fileCount: number; onlineCount: number; totalBytes: number; hasHtml: boolean }, domains: string[]): ProjectSummaryDto {
  return {
    slug: p.slug,
    note: p.note,
    has_password: p.passwordHash !== null,
    file_count: t.fileCount,
    total_bytes: t.totalBytes,
    created_at: p.createdAt.toISOString(),
    url: `/p/${p.slug}`,
    spa: p.spa,
    allow_dotfiles: p.allowDotfiles,
    deploy_id: p.activeDeployId,
    has_html: t.hasHtml,
    online_count: t.onlineCount,
    domains,
  };
}

/** A list entry: the project with its live deploy's counts, without the files. */
export const toProjectSummaryDto = (r: ProjectSummaryRow, domains: string[]): ProjectSummaryDto => toSummary(r.project, r, domains);

export function toProjectDto(p: ProjectRow, files: HostedFileRow[], domains: string[]): ProjectDto {
  const totals = {
    fileCount: files.length,
    onlineCount: files.filter((f) => f.status === 'online').length,
    totalBytes: files.reduce((n, f) => n + Number(f.size), 0),
    hasHtml: files.some((f) => /\.html?$/i.test(f.path)),
  };
  return { ...toSummary(p, totals, domains), files: files.map(toFileDto) };
}

export function toDeployDto(d: DeployRow, activeId: string | null): DeployDto {
  return {
    id: d.id,
    created_at: d.createdAt.toISOString(),
    file_count: d.fileCount,
    total_bytes: Number(d.totalBytes),
    created_by: d.createdBy,
    active: d.id === activeId,
    url: `/p/${d.slug}@${d.id}/`,
  };
}
