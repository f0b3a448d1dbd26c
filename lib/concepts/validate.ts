import 'server-only';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import conceptSchemaFile from '../../public/schemas/concept-1.0.json';

export interface Violation {
  /** JSON pointer into the document, e.g. `/relations/0/confidence`; `` for the root. */
  path: string;
  message: string;
}

export interface ConceptDocument {
  id: string;
  name: string;
  description?: string;
  tags?: string[];
  created_at?: string;
  updated_at?: string;
  relations?: { target_id: string; type: string; confidence?: number }[];
  metadata?: Record<string, unknown>;
}

/**
 * The schema file served at /schemas/concept-1.0.json is the one validated against (and the
 * one the OpenAPI document embeds). Imported, not read from the working directory at runtime.
 */
const CONCEPT_SCHEMA: Record<string, unknown> = conceptSchemaFile;

let compiled: ReturnType<Ajv2020['compile']> | undefined;

/** Every violation of the Concept 1.0 schema (Ajv, draft 2020-12, all errors). */
export function conceptViolations(doc: unknown): Violation[] {
  if (!compiled) {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    compiled = ajv.compile(CONCEPT_SCHEMA);
  }
  if (compiled(doc)) return [];
  return (compiled.errors ?? []).map((e) => {
    const where =
      e.keyword === 'required'
        ? `${e.instancePath}/${(e.params as { missingProperty: string }).missingProperty}`
        : e.keyword === 'additionalProperties'
          ? `${e.instancePath}/${(e.params as { additionalProperty: string }).additionalProperty}`
          : e.instancePath;
    return { path: where, message: e.keyword === 'additionalProperties' ? 'is not allowed' : (e.message ?? 'is invalid') };
  });
}
