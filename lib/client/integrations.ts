/**
 * What the console hands people for their tools, from the server's origin and a token: a
 * ShareX custom uploader (.sxcu), and copy-paste snippets for curl -T, the CLI and a phone's
 * share action. All of them post to the one-request upload routes (API.md "Access tokens and
 * one-request uploads"). Pure: the unit test checks the shapes.
 */
import { endpoints } from '../contract/endpoints';

/** A ShareX custom uploader (ShareX 13+ syntax): the file as the multipart part "file", the link from share.url. */
export function sharexConfig(origin: string, secret: string) {
  const host = new URL(origin).host;
  return {
    Version: '15.0.0',
    Name: `htmls (${host})`,
    DestinationType: 'ImageUploader, TextUploader, FileUploader',
    RequestMethod: 'POST',
    RequestURL: `${origin}${endpoints.uploadShareFiles.path}`,
    Headers: { Authorization: `Bearer ${secret}` },
    Body: 'MultipartFormData',
    FileFormName: 'file',
    URL: `${origin}{json:share.url}`,
    ErrorMessage: '{json:error}',
  };
}

export const sharexFileName = (origin: string) => `htmls-${new URL(origin).host.replace(/[^A-Za-z0-9.-]/g, '_')}.sxcu`;

/** `secret` stands in the snippets as given: the real one right after creation, else a placeholder. */
export function snippets(origin: string, secret = 'htmls_pat_…') {
  const put = `${origin}/api/shares/file/`;
  const files = `${origin}${endpoints.uploadShareFiles.path}`;
  return {
    curl: `curl -H "Authorization: Bearer ${secret}" -T photo.jpg ${put}\n# with options: -T report.pdf "${put}?expires_at=2030-01-01T00:00:00Z&password=…"`,
    curlForm: `curl -H "Authorization: Bearer ${secret}" -F file=@a.jpg -F file=@b.pdf ${files}`,
    cli: `export HTMLS_URL=${origin}\nexport HTMLS_TOKEN=${secret}\nnpx htmls share ./folder --expires 7d`,
    phone: [
      `iOS Shortcuts: a shortcut that accepts Files and Images from the Share Sheet, with one action "Get Contents of URL": URL ${files}, Method POST, Headers: Authorization = Bearer ${secret}, Request Body: Form, a File field named "file" = Shortcut Input. Then "Get Dictionary Value" share → url, and "Copy to Clipboard" ${origin} followed by it.`,
      `Android (HTTP Shortcuts app): a shortcut of type "Multipart form", POST ${files}, header Authorization: Bearer ${secret}, a file parameter "file", "Use as share target" on; show the response's share.url.`,
    ].join('\n\n'),
  };
}

/**
 * A CI job's deploy step with nothing installed but zip and curl: the built folder as one .zip
 * (POST /api/upload unpacks a lone .zip), replacing the project's live deploy. HTMLS_TOKEN is the
 * job's secret: a sites:deploy:<slug> token. docs/ci-deploy.md and the /htmls dialog show this.
 */
export const ciDeployCommand = (origin: string, slug: string, folder = 'dist') =>
  `cd ${folder} && zip -qr ../site.zip . && cd .. && curl -fsS -H "Authorization: Bearer $HTMLS_TOKEN" -F slug=${slug} -F replace=true -F file=@site.zip ${origin}/api/upload`;
