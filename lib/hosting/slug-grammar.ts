/**
 * The one grammar of a project's slug and of a deploy's reference in a preview URL
 * (`/p/<slug>@<deploy>/`), as regular-expression sources: the API's validation, the /p/ router,
 * the origin rules and per-site host names all build their patterns from these. No imports, so
 * any module (the edge proxy included) may use it.
 */
export const SLUG = '[a-z0-9_-]{1,64}';
export const DEPLOY_REF = '[a-z0-9]{1,32}';
