import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { notFound } from 'next/navigation';
import { server } from '@/lib/http/next-link';
import { RequestUpload } from './_components/request-upload';

export const metadata: Metadata = { title: 'Send files', referrer: 'no-referrer', robots: { index: false } };

type Params = Promise<{ id: string }>;

/** A file request's upload page (its data: lib/http/pages/request-page.ts). */
export default async function RequestPage({ params }: { params: Params }) {
  const { id } = await params;
  const jar = await cookies();
  const view = await server().pages.requestView(id, jar.toString(), (name) => jar.get(name)?.value);
  if (!view) notFound();
  return <RequestUpload request={view} />;
}
