/** Webhook event types (API.md "Events"); no zod here, so the consoles can import them. */
export const EVENT_TYPES = ['share.created', 'share.downloaded', 'share.expired', 'request.uploaded', 'site.deployed', 'site.rolled_back'] as const;
/** Only administrators receive these. */
export const ADMIN_EVENT_TYPES: readonly string[] = ['site.deployed', 'site.rolled_back'];
export type EventType = (typeof EVENT_TYPES)[number];
/** Webhooks one owner may have. */
export const MAX_WEBHOOKS_PER_OWNER = 10;
