import { operations } from '@/lib/contract/operations';
import { ownOrigin } from '@/lib/http/origin';
import { json, route } from '@/lib/http/route';
import { shareOembed } from '@/lib/shares/share-oembed';

// GET /api/oembed — oEmbed of a share page of this service (?url=…&format=json)
export const GET = route(operations.oembed, async ({ req, rt, query }) => json(await shareOembed(rt, ownOrigin(rt.env, req.headers, req.url), query)));
