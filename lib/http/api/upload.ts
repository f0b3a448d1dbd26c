import { operations } from '@/lib/contract/operations';
import type { HostedPlace } from '@/lib/hosting/build-check';
import { getHostedPort } from '@/lib/hosting/hosted-port';
import { uploadProject } from '@/lib/hosting/upload-project';
import { hostedOriginFor, isSecureRequest } from '@/lib/http/origin';
import { json, route } from '@/lib/http/route';
import type { Runtime } from '@/lib/runtime';

// POST /api/upload — multipart upload of a site or one .zip (streamed): a new deploy of a new project, an append or a replace
export const POST = route(operations.uploadSite, async ({ rt, req, principal, auditAs }) => {
  const done = await uploadProject(rt, req, principal, hostedPlace(rt, req));
  auditAs(done.project.slug);
  return json(done, 201);
});

/** Where the uploader's link to the project leads (the console's, for the address they used). */
function hostedPlace(rt: Runtime, req: Request): HostedPlace {
  const template = hostedOriginFor(rt.env, getHostedPort(rt), req.headers.get('host') ?? undefined, isSecureRequest(rt.env, req.headers));
  return { hosted: rt.env.hosted, template, port: rt.env.port };
}
