/**
 * The share upload protocol's messages, as types inferred from the zod schemas the server
 * validates and documents with: the upload engine (browser, SDK, CLI) and the server's use
 * cases import these, so no side declares a message of its own. Types only: nothing here
 * reaches a browser bundle.
 */
import type { z } from 'zod';
import type { capabilitiesSchema, chunkResultSchema, initResultSchema, partUrlResultSchema, uploadStatusSchema } from './responses';
import type { completeSchema, initSchema, partUrlSchema } from './shares';

export type Capabilities = z.infer<typeof capabilitiesSchema>;
export type InitRequest = z.input<typeof initSchema>;
export type InitResult = z.infer<typeof initResultSchema>;
export type InitFile = InitResult['files'][number];
export type PartRef = z.infer<typeof partUrlSchema>;
export type PartUrlResult = z.infer<typeof partUrlResultSchema>;
export type ChunkResult = z.infer<typeof chunkResultSchema>;
export type CompleteRequest = z.input<typeof completeSchema>;
export type UploadStatus = z.infer<typeof uploadStatusSchema>;
export type UploadStatusFile = UploadStatus['files'][number];
