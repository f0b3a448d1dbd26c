/**
 * What a share's title is made of: its note's first line, else its first file and how many
 * more, else nothing (no files). Pages in a guest's language word the second and third cases
 * themselves (messages: share.titleMore, share.metaTitle); shareTitle below words them in English.
 */
export type ShareTitleParts = { note: string } | { name: string; more: number } | null;

export function shareTitleParts(note: string, firstPath: string | null | undefined, fileCount: number): ShareTitleParts {
  const line = note.split('\n')[0].trim();
  if (line) return { note: line.slice(0, 120) };
  if (!firstPath || fileCount < 1) return null;
  return { name: firstPath.split('/').filter(Boolean).pop() ?? firstPath, more: fileCount - 1 };
}

/**
 * What a share is called where a person reads it (the share page, /files, mails): its note's
 * first line, else its files — "report.pdf", "report.pdf and 2 more" — never its id
 * (issue 41, item 11). Browser-safe: the consoles import it too.
 */
export function shareTitle(note: string, firstPath: string | null | undefined, fileCount: number): string {
  const parts = shareTitleParts(note, firstPath, fileCount);
  if (!parts) return 'Shared files';
  if ('note' in parts) return parts.note;
  return parts.more > 0 ? `${parts.name} and ${parts.more} more` : parts.name;
}
