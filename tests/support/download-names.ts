/** File names every download client must save exactly: the vitest and Playwright suites share them. */
export const DOWNLOAD_NAMES = {
  latin1: 'Résumé (final).pdf',
  latin1b: 'naïve café.bin',
  latin1c: 'Ünïcode résumé (1).txt',
  quotes: `say "hi" it's.txt`,
  percent: '100%25 done %41.txt',
  emoji: 'party 🎉.png',
  cjk: '日本語の資料.txt',
  dot: '.env',
  long: 'a'.repeat(196) + '.txt',
  longUtf8: 'é'.repeat(98) + '.txt',
};
