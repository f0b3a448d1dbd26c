/**
 * The WAI-ARIA tabs pattern's keyboard: arrows move between tabs (wrapping), Home and End jump
 * to the ends. Returns the tab to focus and select, or null for keys the tab list ignores.
 */
export function tabIndexForKey(key: string, current: number, count: number): number | null {
  if (count <= 0) return null;
  switch (key) {
    case 'ArrowRight':
    case 'ArrowDown':
      return (current + 1) % count;
    case 'ArrowLeft':
    case 'ArrowUp':
      return (current - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}
