import { z } from 'zod';

export const loginSchema = z.object({
  token: z.string().max(1024).optional(),
  username: z.string().max(1024).optional(),
  password: z.string().max(4096).optional(),
});

export const changeTokenSchema = z.object({ token: z.string().max(1024) });
