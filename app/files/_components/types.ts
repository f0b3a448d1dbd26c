import type { UserDto } from '@/lib/contract/dtos';

export type FilesSession = { role: 'admin' | 'member'; user: UserDto | null };
