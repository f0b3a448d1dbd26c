/** The fields of a hosted-site upload (POST /api/upload), shared by the console and the SDK. */
export interface SiteFields {
  slug?: string;
  note?: string;
  password?: string;
  /** Keep the live deploy's other files. */
  append?: boolean;
  /** A new full deploy of an existing project. */
  replace?: boolean;
  spa?: boolean;
  /** Publish dotfiles (.env, .git/…) too. */
  dotfiles?: boolean;
}

/** Appends the fields; they must precede the files, which the server streams as they arrive. */
export function appendSiteFields(form: FormData, f: SiteFields): void {
  if (f.slug) form.append('slug', f.slug);
  if (f.note) form.append('note', f.note);
  if (f.password) form.append('password', f.password);
  if (f.append) form.append('append', 'true');
  if (f.replace) form.append('replace', 'true');
  if (f.spa !== undefined) form.append('spa', String(f.spa));
  if (f.dotfiles !== undefined) form.append('dotfiles', String(f.dotfiles));
}
