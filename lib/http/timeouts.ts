import 'server-only';
/**
 * The longest any request may take: an upload part (the console allows 30 minutes). The
 * janitor treats a temporary file older than this as left behind by a crash.
 */
export const LONGEST_REQUEST_MS = 31 * 60 * 1000;
