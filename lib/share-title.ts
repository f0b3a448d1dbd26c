/**
 * What a share is called where a person reads it (the share page, /files, mails): its note's
 * first line, else its files — "report.pdf", "report.pdf and 2 more" — never its id
 * (issue 41, item 11). Browser-safe: the consoles import it too.
 */
export function shareTitle(note: string, firstPath: string | null | undefined, fileCount: number): string {
  const line = note.split('\n')[0].trim();
  if (line) return line.slice(0, 120);
  if (!firstPath || fileCount < 1) return 'Shared files';
  const name = firstPath.split('/').filter(Boolean).pop() ?? firstPath;
  return fileCount === 1 ? name : `${name} and ${fileCount - 1} more`;
}
