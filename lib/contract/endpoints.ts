/**
 * Every /api operation's method and path, by name: the one table the routes (through
 * lib/contract/operations.ts), the OpenAPI document, the upload engine and the consoles read.
 * No zod here, so browser code can import it without the schemas.
 */
export type Auth = 'none' | 'optional' | 'session' | 'admin' | 'member';
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const e = <const M extends Method, const P extends string>(method: M, path: P) => ({ method, path });

export const endpoints = {
  health: e('GET', '/api/health'),
  oembed: e('GET', '/api/oembed'),
  login: e('POST', '/api/auth/login'),
  register: e('POST', '/api/auth/register'),
  logout: e('POST', '/api/auth/logout'),
  checkAuth: e('GET', '/api/auth/check'),
  me: e('GET', '/api/auth/me'),
  authMethods: e('GET', '/api/auth/methods'),
  oidcStart: e('GET', '/api/auth/oidc/start'),
  oidcCallback: e('GET', '/api/auth/oidc/callback'),
  getOidcIdentity: e('GET', '/api/auth/oidc/identity'),
  unlinkOidcIdentity: e('DELETE', '/api/auth/oidc/identity'),
  updateProfile: e('PATCH', '/api/auth/profile'),
  confirmEmail: e('POST', '/api/auth/email/confirm'),
  resendEmailConfirmation: e('POST', '/api/auth/email/resend'),
  deleteOwnAccount: e('DELETE', '/api/auth/account'),
  changeAdminToken: e('PATCH', '/api/auth/token'),
  loginSecondFactor: e('POST', '/api/auth/login/second-factor'),
  totpSetup: e('POST', '/api/auth/totp/setup'),
  totpEnable: e('POST', '/api/auth/totp/enable'),
  totpDisable: e('POST', '/api/auth/totp/disable'),
  changePassword: e('POST', '/api/auth/password'),
  listSessions: e('GET', '/api/auth/sessions'),
  endSession: e('DELETE', '/api/auth/sessions/{id}'),
  endOtherSessions: e('DELETE', '/api/auth/sessions'),
  endUserSessions: e('DELETE', '/api/users/{id}/sessions'),
  listUsers: e('GET', '/api/users'),
  createUser: e('POST', '/api/users'),
  updateUser: e('PATCH', '/api/users/{id}'),
  deleteUser: e('DELETE', '/api/users/{id}'),
  getSettings: e('GET', '/api/settings'),
  updateSettings: e('PATCH', '/api/settings'),
  listProjects: e('GET', '/api/files'),
  deleteFile: e('DELETE', '/api/files/{id}'),
  uploadSite: e('POST', '/api/upload'),
  listDeploys: e('GET', '/api/projects/{slug}/deploys'),
  activateDeploy: e('POST', '/api/projects/{slug}/deploys/{id}/activate'),
  setFileStatus: e('PATCH', '/api/status'),
  getProject: e('GET', '/api/projects/{slug}'),
  updateProject: e('PATCH', '/api/projects/{slug}'),
  tlsAsk: e('GET', '/api/tls/ask'),
  checkProjectDomains: e('GET', '/api/projects/{slug}/domains'),
  deleteProject: e('DELETE', '/api/projects/{slug}'),
  listShares: e('GET', '/api/shares'),
  getShare: e('GET', '/api/shares/{id}'),
  updateShare: e('PATCH', '/api/shares/{id}'),
  deleteShare: e('DELETE', '/api/shares/{id}'),
  getShareActivity: e('GET', '/api/shares/{id}/activity'),
  deleteShareItem: e('DELETE', '/api/shares/{id}/items'),
  setSharePoster: e('POST', '/api/shares/{id}/poster'),
  uploadCapabilities: e('GET', '/api/shares/upload/capabilities'),
  initUpload: e('POST', '/api/shares/upload/init'),
  partUrl: e('POST', '/api/shares/upload/part-url'),
  uploadChunk: e('PUT', '/api/shares/upload/chunk'),
  completeUpload: e('POST', '/api/shares/upload/complete'),
  abortUpload: e('POST', '/api/shares/upload/abort'),
  uploadStatus: e('POST', '/api/shares/upload/status'),
  listRequests: e('GET', '/api/requests'),
  createRequest: e('POST', '/api/requests'),
  getRequest: e('GET', '/api/requests/{id}'),
  updateRequest: e('PATCH', '/api/requests/{id}'),
  deleteRequest: e('DELETE', '/api/requests/{id}'),
  requestUpload: e('POST', '/api/requests/{id}/upload'),
  discardRequestUploads: e('DELETE', '/api/requests/{id}/uploads'),
  listConcepts: e('GET', '/api/concepts'),
  createConcept: e('POST', '/api/concepts'),
  getConcept: e('GET', '/api/concepts/{id}'),
  replaceConcept: e('PUT', '/api/concepts/{id}'),
  deleteConcept: e('DELETE', '/api/concepts/{id}'),
  listTokens: e('GET', '/api/tokens'),
  createToken: e('POST', '/api/tokens'),
  deleteToken: e('DELETE', '/api/tokens/{id}'),
  uploadShareFile: e('PUT', '/api/shares/file/{name}'),
  uploadShareFiles: e('POST', '/api/shares/files'),
  listWebhooks: e('GET', '/api/webhooks'),
  createWebhook: e('POST', '/api/webhooks'),
  updateWebhook: e('PATCH', '/api/webhooks/{id}'),
  deleteWebhook: e('DELETE', '/api/webhooks/{id}'),
  listDeliveries: e('GET', '/api/webhooks/{id}/deliveries'),
  redeliver: e('POST', '/api/webhooks/{id}/deliveries/{delivery_id}/redeliver'),
  testWebhook: e('POST', '/api/webhooks/{id}/test'),
  listAudit: e('GET', '/api/audit'),
  storageHistory: e('GET', '/api/storage/history'),
  openapi: e('GET', '/api/openapi.json'),
} as const;

export type EndpointName = keyof typeof endpoints;

/** The path of an endpoint with its `{param}`s filled in (each percent-encoded). */
export function endpointPath(name: EndpointName, params: Record<string, string> = {}): string {
  return endpoints[name].path.replace(/\{(\w+)\}/g, (_, k: string) => {
    if (params[k] === undefined) throw new Error(`${name}: missing path parameter ${k}`);
    return encodeURIComponent(params[k]);
  });
}
