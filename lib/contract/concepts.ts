import { z } from 'zod';

export const conceptsQuerySchema = z.object({ tag: z.string().min(1).max(200).optional() });
