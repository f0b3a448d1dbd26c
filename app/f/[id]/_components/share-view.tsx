import type { ShareDto, ShareItemDto } from '@/lib/shares/share-dto';

export type ViewItem = ShareItemDto & { preview: 'video' | 'audio' | 'image' | 'pdf' | 'text' | null };
export type ViewShare = Omit<ShareDto, 'items'> & { items: ViewItem[] };

const fmt = (n: number) => {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(1)} ${units[i]}`;
};

/** The guest view: note, expiry, the items with a player or preview and a download each. */
export function ShareView({ share }: { share: ViewShare }) {
  return (
    <main className="mx-auto max-w-4xl px-4 py-8">
      <header className="mb-6">
        <h1 className="text-2xl font-semibold">Shared files</h1>
        {share.note ? <p className="mt-2 whitespace-pre-wrap text-zinc-700 dark:text-zinc-300">{share.note}</p> : null}
        <p className="mt-1 text-sm text-zinc-500">
          {share.file_count} {share.file_count === 1 ? 'file' : 'files'} · {fmt(share.total_bytes)}
          {share.expires_at ? ` · available until ${new Date(share.expires_at).toUTCString()}` : ''}
        </p>
      </header>
      <ul className="space-y-4">
        {share.items.map((it) => (
          <li key={it.relative_path} className="rounded-xl border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="break-all font-medium">{it.relative_path}</span>
              <span className="flex items-center gap-3 text-sm text-zinc-500">
                {fmt(it.size)}
                <a className="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-500" href={`${it.url}?download=1`} download>
                  Download
                </a>
              </span>
            </div>
            {it.preview === 'video' ? <video className="mt-3 w-full rounded-lg bg-black" controls preload="metadata" src={it.url} /> : null}
            {it.preview === 'audio' ? <audio className="mt-3 w-full" controls preload="metadata" src={it.url} /> : null}
            {it.preview === 'image' ? <img className="mt-3 max-h-[70vh] rounded-lg" src={it.url} alt={it.relative_path} loading="lazy" /> : null}
          </li>
        ))}
      </ul>
    </main>
  );
}
