import { z } from 'zod';

export const fileStatusSchema = z.object({
  id: z.uuid({ message: 'id must be a file id' }),
  status: z.enum(['online', 'offline']),
});

export const updateProjectSchema = z.object({
  note: z.string().max(2000).optional(),
  password: z.string().max(256).nullable().optional(),
});

export const uuidParam = z.uuid();
