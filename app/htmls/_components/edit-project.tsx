'use client';

import { useState } from 'react';
import { Button, Field } from '@/app/_components/ui';
import type { ProjectDto } from '@/lib/hosting/project-dto';

export function EditProject({ project, onSave, onCancel }: { project: ProjectDto; onSave: (body: Record<string, unknown>) => Promise<void>; onCancel: () => void }) {
  const [note, setNote] = useState(project.note);
  const [password, setPassword] = useState('');
  const [clear, setClear] = useState(false);
  const [spa, setSpa] = useState(project.spa);
  const [dotfiles, setDotfiles] = useState(project.allow_dotfiles);
  return (
    <form
      className="space-y-3"
      onSubmit={async (e) => {
        e.preventDefault();
        await onSave({ note, spa, allow_dotfiles: dotfiles, ...(clear ? { password: null } : password ? { password } : {}) });
      }}
    >
      <Field label="Note" value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
      <Field
        label={project.has_password ? 'New password (leave empty to keep)' : 'Password (optional)'}
        value={password}
        autoComplete="off"
        disabled={clear}
        onChange={(e) => setPassword(e.target.value)}
      />
      {project.has_password ? (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={clear} onChange={(e) => setClear(e.target.checked)} />
          Remove the password
        </label>
      ) : null}
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={spa} onChange={(e) => setSpa(e.target.checked)} />
        Single-page app: unknown paths without an extension serve the index file
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={dotfiles} onChange={(e) => setDotfiles(e.target.checked)} />
        Serve dotfiles (.env, .git/…); .well-known/ is always served
      </label>
      <div className="flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit">Save</Button>
      </div>
    </form>
  );
}
