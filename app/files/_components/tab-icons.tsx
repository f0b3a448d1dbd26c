/** The phone tab bar's outline icons (24 × 24, stroked in the text colour; decorative). */
const svg = { viewBox: '0 0 24 24', strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

export const UploadIcon = () => (
  <svg {...svg}>
    <path d="M12 15V4m0 0L7.5 8.5M12 4l4.5 4.5M4 15v3.5A1.5 1.5 0 0 0 5.5 20h13a1.5 1.5 0 0 0 1.5-1.5V15" />
  </svg>
);

export const SharesIcon = () => (
  <svg {...svg}>
    <path d="M10 14a4 4 0 0 0 5.66 0l3-3a4 4 0 0 0-5.66-5.66l-1 1M14 10a4 4 0 0 0-5.66 0l-3 3a4 4 0 0 0 5.66 5.66l1-1" />
  </svg>
);

export const SettingsIcon = () => (
  <svg {...svg}>
    <path d="M4 6h9m4 0h3M4 12h3m4 0h9M4 18h11m4 0h1" />
    <circle cx="15" cy="6" r="2" />
    <circle cx="9" cy="12" r="2" />
    <circle cx="17" cy="18" r="2" />
  </svg>
);

export const RequestsIcon = () => (
  <svg {...svg}>
    <path d="M4 13h4l1.5 3h5L16 13h4M4 13l2.5-7h11L20 13v5.5a1.5 1.5 0 0 1-1.5 1.5h-13A1.5 1.5 0 0 1 4 18.5V13Z" />
  </svg>
);
