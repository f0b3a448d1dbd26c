/**
 * The API's response types, read from the response schemas (responses.ts): what the consoles,
 * the SDK and the CLI name when they hold an answer (STYLE rule 17: a client never imports a
 * server-only module, not even for a type). The server's toXDto() mappers
 * (lib/<domain>/*-dto.ts) return these same types.
 */
import type { z } from 'zod';
import type {
  accessTokenSchema,
  authMethodsSchema,
  oidcIdentitySchema,
  passkeySchema,
  deploySchema,
  fileSchema,
  projectSchema,
  projectSummarySchema,
  requestSchema,
  shareItemSchema,
  shareSchema,
  shareSummarySchema,
  userSchema,
} from './responses';

export type ShareItemDto = z.output<typeof shareItemSchema>;
export type ShareDto = z.output<typeof shareSchema>;
export type ShareSummaryDto = z.output<typeof shareSummarySchema>;
export type UserDto = z.output<typeof userSchema>;
export type AuthMethods = z.output<typeof authMethodsSchema>;
export type OidcIdentity = z.output<typeof oidcIdentitySchema>;
export type Passkey = z.output<typeof passkeySchema>;
export type FileDto = z.output<typeof fileSchema>;
export type ProjectDto = z.output<typeof projectSchema>;
export type ProjectSummaryDto = z.output<typeof projectSummarySchema>;
export type DeployDto = z.output<typeof deploySchema>;
export type RequestDto = z.output<typeof requestSchema>;
export type AccessTokenDto = z.output<typeof accessTokenSchema>;

/** How the share page previews a file of a type (lib/mime.ts's previewKind decides; null: no preview). */
export type PreviewKind = 'video' | 'audio' | 'image' | 'text' | null;
