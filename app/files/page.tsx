import type { Metadata } from 'next';
import { getPagePrincipal } from '@/lib/auth/page-session';
import { roleOf } from '@/lib/auth/principal';
import { toUserDto } from '@/lib/users/user-dto';
import { AppWorker } from '@/app/_components/app-worker';
import { FilesApp } from './_components/files-app';

export const metadata: Metadata = { title: 'Files', manifest: '/files/manifest.webmanifest' };

export default async function FilesPage() {
  const p = await getPagePrincipal();
  const session = p ? { role: roleOf(p), user: p.kind === 'user' ? toUserDto(p.user) : null } : null;
  return (
    <>
      <AppWorker scope="/files" />
      <FilesApp initialSession={session} />
    </>
  );
}
