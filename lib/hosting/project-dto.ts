import type { HostedFileRow, ProjectRow } from '@/db/schema';

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
  files: FileDto[];
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
    files: files.map(toFileDto),
  };
}
