import type { ShareDto, ShareItemDto } from '@/lib/shares/share-dto';

export type ViewItem = ShareItemDto & { preview: 'video' | 'audio' | 'image' | 'pdf' | 'text' | null; text?: string };
export type ViewShare = Omit<ShareDto, 'items'> & { items: ViewItem[] };

export function formatBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

/** Items grouped by folder, folders in path order, so a shared tree reads as a tree. */
function byFolder(items: ViewItem[]): [string, ViewItem[]][] {
  const groups = new Map<string, ViewItem[]>();
  for (const it of items) {
    const cut = it.relative_path.lastIndexOf('/');
    const folder = cut < 0 ? '' : it.relative_path.slice(0, cut);
    groups.set(folder, [...(groups.get(folder) ?? []), it]);
  }
  return [...groups.entries()].sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b)));
}

/** The guest view: note, expiry, the items as a tree with a player or preview and a download each. */
export function ShareView({ share }: { share: ViewShare }) {
  const groups = byFolder(share.items);
  return (
    <main className="mx-auto max-w-4xl px-4 py-8">
      <header className="mb-6">
        <p className="text-sm font-medium text-indigo-600 dark:text-indigo-400">htmls · shared with you</p>
        <h1 className="mt-1 text-2xl font-semibold">{share.note ? share.note.split('\n')[0].slice(0, 120) : 'Shared files'}</h1>
        {share.note && share.note.includes('\n') ? (
          <p className="mt-2 whitespace-pre-wrap text-zinc-700 dark:text-zinc-300">{share.note}</p>
        ) : null}
        <p className="mt-2 text-sm text-zinc-500">
          {share.file_count} {share.file_count === 1 ? 'file' : 'files'} · {formatBytes(share.total_bytes)}
          {share.expires_at ? (
            <>
              {' · available until '}
              <time dateTime={share.expires_at}>{new Date(share.expires_at).toUTCString()}</time>
            </>
          ) : null}
        </p>
      </header>
      {groups.map(([folder, items]) => (
        <section key={folder || '.'} className="mb-6" aria-label={folder || 'Files'}>
          {folder ? (
            <h2 className="mb-2 flex items-center gap-2 text-sm font-semibold text-zinc-600 dark:text-zinc-400">
              <span aria-hidden>📁</span>
              <span className="break-all">{folder}/</span>
            </h2>
          ) : null}
          <ul className="space-y-3">
            {items.map((it) => (
              <Item key={it.relative_path} item={it} />
            ))}
          </ul>
        </section>
      ))}
    </main>
  );
}

function Item({ item: it }: { item: ViewItem }) {
  const name = it.relative_path.split('/').pop()!;
  return (
    <li className="rounded-xl border border-zinc-200 bg-white p-4 shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <a href={it.url} className="break-all font-medium hover:underline" title={it.relative_path}>
          {name}
        </a>
        <span className="flex items-center gap-3 text-sm text-zinc-500">
          <span>{formatBytes(it.size)}</span>
          <a
            className="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
            href={`${it.url}?download=1`}
            download={name}
            aria-label={`Download ${name}`}
          >
            Download
          </a>
        </span>
      </div>
      {it.preview === 'video' ? (
        <video className="mt-3 max-h-[75vh] w-full rounded-lg bg-black" controls playsInline preload="metadata" src={it.url} />
      ) : null}
      {it.preview === 'audio' ? <audio className="mt-3 w-full" controls preload="metadata" src={it.url} /> : null}
      {it.preview === 'image' ? (
        <img className="mt-3 max-h-[75vh] max-w-full rounded-lg" src={it.url} alt={it.relative_path} loading="lazy" />
      ) : null}
      {it.preview === 'pdf' ? (
        <iframe className="mt-3 h-[75vh] w-full rounded-lg border border-zinc-200 dark:border-zinc-800" src={it.url} title={name} />
      ) : null}
      {it.preview === 'text' && it.text !== undefined ? (
        <pre className="mt-3 max-h-96 overflow-auto rounded-lg bg-zinc-100 p-3 text-xs leading-relaxed dark:bg-zinc-950">{it.text}</pre>
      ) : null}
    </li>
  );
}
