import { describe, expect, it } from 'vitest';
import { isPrivatePath } from './private-paths';

describe('isPrivatePath', () => {
  it.each(['site/.git/config', '.env', 'site/.env.local', 'a/node_modules/x/index.js', '.hg/store', 'x/.svn/entries', 'site/.ENV'])('%s is left out', (p) => {
    expect(isPrivatePath(p)).toBe(true);
  });
  it.each(['site/index.html', 'site/.well-known/security.txt', 'env.js', 'site/.nojekyll', 'git/config', 'environment/.htaccess'])('%s is kept', (p) => {
    expect(isPrivatePath(p)).toBe(false);
  });
});
