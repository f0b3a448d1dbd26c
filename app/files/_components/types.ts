import type { UserDto } from '@/lib/users/user-dto';

export type FilesSession = { role: 'admin' | 'member'; user: UserDto | null };
