/**
 * OpenAPI for the public "Download all" route, GET/HEAD /f/{id}/?zip (not /api: answered on the
 * fast path by lib/shares/serve-share-zip.ts), merged into the document by openapi.ts.
 */
export function shareZipPaths(): Record<string, Record<string, unknown>> {
  const header = (description: string) => ({ description, schema: { type: 'string' } });
  const page = { 'text/html': { schema: { type: 'string' } }, 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
  const validators = {
    ETag: header('Strong ETag naming the archive: the share id, the folder and every included item (path, size, ETag, stored time). Same items, same bytes.'),
    'Last-Modified': header('The newest included item\'s stored time'),
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
      { name: 'zip', in: 'query', required: true, allowEmptyValue: true, description: 'Present (any value, usually empty): the ZIP instead of the share page', schema: { type: 'string' } },
      { name: 'folder', in: 'query', required: false, description: 'A folder of the share (no leading or trailing slash)', schema: { type: 'string' } },
      { name: 'Range', in: 'header', required: false, schema: { type: 'string' } },
      { name: 'If-Range', in: 'header', required: false, schema: { type: 'string' } },
      { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
    ],
    responses: {
      200: {
        description: 'The whole archive',
        headers: { ...validators, 'Content-Disposition': header('`attachment`; `<share id>.zip`, or `<folder name>.zip` for one folder (ASCII `filename`, `filename*` when needed)') },
        content: { 'application/zip': { schema: { type: 'string', contentMediaType: 'application/zip' } } },
      },
      206: { description: 'One range (Content-Range) or several (multipart/byteranges) of the archive', headers: validators, content: { 'application/zip': { schema: { type: 'string' } }, 'multipart/byteranges': { schema: { type: 'string' } } } },
      304: { description: 'Not modified', headers: validators },
      401: { description: 'Password required: the password page (POST /f/{id}/unlock sets the cookie)', content: page },
      404: { description: 'No such share, offline or still uploading, or no item under `folder`', content: page },
      410: { description: 'The share has expired (or its download limit is reached)', content: page },
      412: { description: 'If-Match or If-Unmodified-Since is false' },
      416: { description: 'No satisfiable range', headers: { 'Content-Range': header('`bytes */<size>`') } },
    },
  };
  return { '/f/{id}/': { get, head: { ...get, operationId: 'headShareZip', summary: 'As GET ?zip, without a body: the exact length and ETag' } } };
}
