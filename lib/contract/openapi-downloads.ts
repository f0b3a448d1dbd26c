/**
 * OpenAPI for the public byte routes (not /api): one item of a share, GET/HEAD /f/{id}/{path},
 * and "Download all", GET/HEAD /f/{id}?zip (the share page links /f/{id}/?zip: both are served;
 * the document names the one without, as OpenAPI paths end without a slash). Framework-free (lib/http/guest/serve-share-item.ts,
 * lib/http/guest/serve-share-zip.ts, both through lib/http/send-object.ts, so both answer the same
 * conditional and range requests); openapi.ts merges these paths into the document.
 */
const header = (description: string, schema: Record<string, unknown> = { type: 'string' }) => ({ description, schema });
/** Guests' errors: JSON for `Accept: application/json`, else a small HTML page. */
const page = { 'text/html': { schema: { type: 'string' } }, 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
/** RFC 9110 §13–14, as lib/http/send-object.ts answers them. */
const conditionalParams = [
  { name: 'Range', in: 'header', required: false, schema: { type: 'string' }, description: 'e.g. `bytes=0-99`, `bytes=-500`, `bytes=0-9,100-109`' },
  ...['If-Range', 'If-None-Match', 'If-Modified-Since', 'If-Match', 'If-Unmodified-Since'].map((name) => ({ name, in: 'header', required: false, schema: { type: 'string' } })),
];
const commonResponses = (validators: Record<string, unknown>) => ({
  304: { description: 'Not modified (If-None-Match / If-Modified-Since)', headers: validators },
  401: { description: 'Password required: the password page (POST /f/{id}/unlock sets the cookie)', content: page },
  412: { description: 'If-Match or If-Unmodified-Since is false' },
  416: { description: 'No satisfiable range', headers: { 'Content-Range': header('`bytes */<size>`') } },
});

function shareItemPath() {
  const validators = {
    ETag: header('Strong ETag of the stored object'),
    'Last-Modified': header('When the item was stored'),
    'Accept-Ranges': header('Always `bytes`', { type: 'string', const: 'bytes' }),
  };
  const disposition = {
    description:
      '`inline` (or `attachment` with ?download=1, and always for HTML, SVG and unknown types) with `filename="…"` in pure printable ASCII (accents transliterated, anything else `_`) and, whenever the name is not plain printable ASCII without `"`, `\\` or `%`, `filename*=UTF-8\'\'…` (RFC 8187) with the exact name.',
    schema: { type: 'string' },
  };
  const get = {
    summary: 'The bytes of one item of a share (guests; a password share needs its unlock cookie)',
    description: [
      'RFC 9110 conditional and range requests. Preconditions in the RFC order: a false If-Match or If-Unmodified-Since answers 412; a matching If-None-Match (weak comparison) or an If-Modified-Since not older than Last-Modified answers 304.',
      'Range: `bytes=` ranges only. One satisfiable range answers 206 with Content-Range; several answer 206 `multipart/byteranges` (sorted, overlapping and adjacent ranges coalesced, streamed with an exact Content-Length). More than 16 ranges, a malformed header, or an If-Range that is not exactly the current strong ETag or the exact Last-Modified date answer the whole body (200). No satisfiable range — including positions beyond 2^53 — answers 416 with `Content-Range: bytes */<size>`. HEAD ignores Range.',
      'Counts (docs/downloads.md): without max_downloads, a response reaching the last byte counts once in the share\'s and the item\'s download_count; with it, a download counts when it starts (an atomic reservation; 410 download_limit when none is left) and the same client\'s later ranges continue it (the `htmls_dl` cookie it sets, or its address and User-Agent for a range after byte 0). HEAD, 304, `?preview` and link-preview fetchers never count.',
      'Errors are the contract\'s JSON for clients that send `Accept: application/json`, a small HTML page otherwise.',
    ].join('\n\n'),
    operationId: 'getShareItemBytes',
    security: [],
    parameters: [
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'path', in: 'path', required: true, description: "The item's relative path, each segment percent-encoded (slashes kept)", schema: { type: 'string' } },
      { name: 'download', in: 'query', required: false, description: '`1`: Content-Disposition attachment', schema: { type: 'string', enum: ['1'] } },
      {
        name: 'preview',
        in: 'query',
        required: false,
        description: 'Present: what the share page previews, never counted. With max_downloads it is bounded: text its first 4 KiB, images up to 8 MiB, video and audio with zeros between their first and last min(4 MiB, size/8) bytes; 404 for other files.',
        schema: { type: 'string' },
      },
      ...conditionalParams,
    ],
    responses: {
      200: { description: 'The whole item', headers: { ...validators, 'Content-Disposition': disposition }, content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } },
      206: {
        description: 'One range (Content-Range) or several (multipart/byteranges)',
        headers: { ...validators, 'Content-Range': header('`bytes <first>-<last>/<size>` (one range)') },
        content: { 'application/octet-stream': { schema: { type: 'string' } }, 'multipart/byteranges': { schema: { type: 'string' } } },
      },
      404: { description: 'No such share or item, or the share is offline', content: page },
      410: { description: 'expired, or download_limit (max_downloads reached)', content: page },
      429: { description: 'rate_limited: this address already has MAX_DOWNLOADS_PER_IP downloads running and a full queue waiting for them, or none came free within 10 s (Retry-After)', content: page },
      ...commonResponses(validators),
    },
  };
  return { get, head: { ...get, operationId: 'headShareItemBytes', summary: 'As GET, without a body (Range is ignored)' } };
}

function shareZipPath() {
  const validators = {
    ETag: header('Strong ETag naming the archive: the share id, the folder and every included item (path, size, ETag, stored time). Same items, same bytes.'),
    'Last-Modified': header("The newest included item's stored time"),
    'Accept-Ranges': header('Always `bytes`'),
  };
  const get = {
    summary: 'Every item of a share, or of one folder, as one streamed ZIP (guests; a password share needs its unlock cookie)',
    description: [
      'A STORE (uncompressed) ZIP, streamed from the store without a temporary copy: entries sorted by path, folders kept as entries, UTF-8 names (flag bit 11), each entry\'s time its item\'s stored time (UTC), data descriptors (flag bit 3) carrying each CRC-32, ZIP64 fields for entries of 4 GiB or more, offsets past 4 GiB and 65,535 entries or more.',
      'Its Content-Length is exact and known before the first byte and its layout is deterministic, so the ZIP answers RFC 9110 conditional and range requests as items do (304, 412, 206 with one range or multipart/byteranges, 416 with `bytes */<size>`, exact If-Range): `curl -C -`, wget -c and browsers resume it byte-identically.',
      '`folder=a/b` packs only the items under `a/b/`, with names starting at `b/` (unzipping gives the folder itself).',
      'CRC-32s are known per item (share_items.crc32): combined from the parts\' CRCs when the file was uploaded through the server (proxy mode), else cached from the first time the server reads the item whole; a range that needs a CRC not yet known (a data descriptor or the central directory) makes the server read that item once first.',
      'A download that reaches the last byte counts once for the share (HEAD and 304 never). Errors as for items: JSON for `Accept: application/json`, else a small HTML page.',
    ].join('\n\n'),
    operationId: 'getShareZip',
    security: [],
    parameters: [
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'zip', in: 'query', required: true, allowEmptyValue: true, description: 'Present (any value, usually empty): the ZIP instead of the share page. `/f/{id}/?zip` is the same archive.', schema: { type: 'string' } },
      { name: 'folder', in: 'query', required: false, description: 'A folder of the share (no leading or trailing slash)', schema: { type: 'string' } },
      ...conditionalParams,
    ],
    responses: {
      200: {
        description: 'The whole archive',
        headers: { ...validators, 'Content-Disposition': header('`attachment`; `<share id>.zip`, or `<folder name>.zip` for one folder (ASCII `filename`, `filename*` when needed)') },
        content: { 'application/zip': { schema: { type: 'string', contentMediaType: 'application/zip' } } },
      },
      206: { description: 'One range (Content-Range) or several (multipart/byteranges) of the archive', headers: validators, content: { 'application/zip': { schema: { type: 'string' } }, 'multipart/byteranges': { schema: { type: 'string' } } } },
      404: { description: 'No such share, offline or still uploading, or no item under `folder`', content: page },
      410: { description: 'The share has expired (or its download limit is reached)', content: page },
      429: { description: 'rate_limited: too many downloads from this address at once (as for items)', content: page },
      ...commonResponses(validators),
    },
  };
  return { get, head: { ...get, operationId: 'headShareZip', summary: 'As GET ?zip, without a body: the exact length and ETag' } };
}

/** The link-preview card of a share (lib/http/guest/serve-share-card.ts, docs/link-previews.md). */
function shareCardPath() {
  const get = {
    summary: "A share's link-preview card: a 1200×630 PNG (og:image of the share page)",
    description:
      'Title, file count, size and expiry of an open share; the one generic card (no name, size or count) for a locked or expired share or with LINK_PREVIEWS=off. Reads no file and never counts a download. Rate-limited like the pages (REQUESTS_PER_SECOND_PER_IP); cached five minutes by ETag.',
    operationId: 'getShareCard',
    security: [],
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9]{1,64}$' } }, { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } }],
    responses: {
      200: { description: 'The card', headers: { ETag: header('Hash of the card'), 'Cache-Control': header('`public, max-age=300`') }, content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } } },
      304: { description: 'Not modified (If-None-Match)' },
      404: { description: 'No such share, or offline or still uploading', content: page },
      429: { description: 'rate_limited (Retry-After)', content: page },
    },
  };
  return { get, head: { ...get, operationId: 'headShareCard', summary: 'As GET, without a body' } };
}

export function guestDownloadPaths(): Record<string, Record<string, unknown>> {
  return { '/f/{id}/{path}': shareItemPath(), '/f/{id}': shareZipPath(), '/f/{id}.png': shareCardPath() };
}
