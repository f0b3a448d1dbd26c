import { getTranslations } from 'next-intl/server';
import type { ViewShare } from '@/lib/contract/pages';
import { shareTitleParts } from '@/lib/share-title';

/** The parts of the share's title (lib/share-title.ts): its note, else its first file (by path) and how many more. */
function partsOf(share: ViewShare) {
  const first = share.items.reduce<string | null>((a, [p]) => (a === null || p < a ? p : a), null);
  return shareTitleParts(share.note, first, share.items.length);
}

/** The browser tab's title, in the guest's language: what the page's heading says, as text. */
export async function pageTitle(share: ViewShare | null): Promise<string> {
  const t = await getTranslations('share');
  const parts = share && partsOf(share);
  if (!parts) return t('metaTitle');
  if ('note' in parts) return parts.note;
  return parts.more > 0 ? t.markup('titleMore', { name: parts.name, count: parts.more, bdi: (chunks) => chunks }) : parts.name;
}

/**
 * The page's heading: the note's first line or a lone file's name in its own direction, or
 * "report.pdf and 2 more" with the name isolated (<bdi>) so a Latin name keeps its order in Arabic.
 */
export async function ShareHeading({ share }: { share: ViewShare }) {
  const t = await getTranslations('share');
  const parts = partsOf(share);
  const className = 'mt-1 break-words text-2xl font-semibold';
  if (!parts) return <h1 className={className}>{t('metaTitle')}</h1>;
  if ('note' in parts || parts.more === 0) {
    return (
      <h1 className={className} dir="auto">
        {'note' in parts ? parts.note : parts.name}
      </h1>
    );
  }
  return <h1 className={className}>{t.rich('titleMore', { name: parts.name, count: parts.more, bdi: (chunks) => <bdi>{chunks}</bdi> })}</h1>;
}
