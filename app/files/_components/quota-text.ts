const GB = 1024 ** 3;
const MB = 1024 ** 2;

/** A quota as the administrator would type it back: whole GB when it is, else MB. */
export const quotaText = (bytes: number) => (bytes % GB === 0 && bytes >= GB ? `${bytes / GB} GB` : `${Math.round((bytes / MB) * 100) / 100} MB`);
