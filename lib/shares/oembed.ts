/** The oEmbed discovery link of a share page (GET /api/oembed, docs/link-previews.md). */
export const oembedHref = (origin: string, pageUrl: string) => `${origin}/api/oembed?url=${encodeURIComponent(pageUrl)}&format=json`;
