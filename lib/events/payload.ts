/**
 * What a webhook receives of an event's data: a share's `url` is stored as its path (as the API's
 * Share.url) and sent whole when PUBLIC_URL names the service, so a receiver can link to it
 * without a second call. Without PUBLIC_URL the path stays (the service knows no origin of its own).
 */
export function deliveredData(data: unknown, publicUrl: string | undefined): Record<string, unknown> {
  const d = (data ?? {}) as Record<string, unknown>;
  if (!publicUrl || typeof d.url !== 'string' || !d.url.startsWith('/')) return d;
  return { ...d, url: `${publicUrl}${d.url}` };
}
