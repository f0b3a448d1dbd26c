import { randomSlug } from '../auth/crypto';
import { AppError } from '../errors';
import { SLUG } from './slug-grammar';

export const SLUG_PATTERN = new RegExp(`^${SLUG}$`);

export const isValidSlug = (slug: string) => SLUG_PATTERN.test(slug);

export function assertSlug(slug: string): string {
  if (!isValidSlug(slug)) {
    throw new AppError('invalid_request', 'A slug is 1 to 64 characters of a-z, 0-9, "-" and "_"');
  }
  return slug;
}

export { randomSlug };
