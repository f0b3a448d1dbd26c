/**
 * Small inline icons beside text (1em, the text's colour, decorative). SVG, not emoji: many
 * Linux desktops have no emoji font and showed 🔒 and 📁 as empty boxes.
 */
const svg = {
  viewBox: '0 0 24 24',
  width: '1em',
  height: '1em',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  'aria-hidden': true,
  focusable: false,
} as const;

export const LockIcon = () => (
  <svg {...svg} data-icon="lock">
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <path d="M8 11V7a4 4 0 0 1 8 0v4" />
  </svg>
);

export const FolderIcon = () => (
  <svg {...svg} data-icon="folder">
    <path d="M3 6.5A1.5 1.5 0 0 1 4.5 5H9l2 2.5h8.5A1.5 1.5 0 0 1 21 9v9.5a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 18.5z" />
  </svg>
);
