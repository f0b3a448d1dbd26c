import 'server-only';
import type { DeployRow, HostedFileRow, ProjectRow } from '@/db/schema';

export interface FileDto {
  id: string;
  slug: string;
  path: string;
  size: number;
  content_type: string;
  status: 'online' | 'offline';
  created_at: string;
}

export interface ProjectDto {
  slug: string;
  note: string;
  has_password: boolean;
  file_count: number;
  total_bytes: number;
  created_at: string;
  url: string;
  /** Unknown extensionless paths serve the index file. */
  spa: boolean;
  /** Paths with dot-segments are served. */
  allow_dotfiles: boolean;
  /** The live deploy. */
  deploy_id: string | null;
  /** Whether the live deploy has an HTML page (else /p/<slug>/ is a file listing). */
  has_html: boolean;
  files: FileDto[];
}

export interface DeployDto {
  id: string;
  created_at: string;
  file_count: number;
  total_bytes: number;
  created_by: string;
  active: boolean;
  /** Unlisted preview of this deploy (behind the project's password, if any). */
  url: string;
}

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
