import 'server-only';
import type { z } from 'zod';
import type { deploySchema, fileSchema, projectSchema } from '../contract/responses';
import type { DeployRow, HostedFileRow, ProjectRow } from '@/db/schema';

export type FileDto = z.output<typeof fileSchema>;

export type ProjectDto = z.output<typeof projectSchema>;

export type DeployDto = z.output<typeof deploySchema>;

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

export function toProjectDto(p: ProjectRow, files: HostedFileRow[]): ProjectDto {
  return {
    slug: p.slug,
    note: p.note,
    has_password: p.passwordHash !== null,
    file_count: files.length,
    total_bytes: files.reduce((n, f) => n + Number(f.size), 0),
    created_at: p.createdAt.toISOString(),
    url: `/p/${p.slug}`,
    spa: p.spa,
    allow_dotfiles: p.allowDotfiles,
    deploy_id: p.activeDeployId,
    has_html: files.some((f) => /\.html?$/i.test(f.path)),
    files: files.map(toFileDto),
  };
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
