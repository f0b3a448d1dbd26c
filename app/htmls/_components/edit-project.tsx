'use client';

import { useState } from 'react';
import { PasswordChangeFields } from '@/app/_components/password-change-fields';
import { CheckboxField, Field, FormActions } from '@/app/_components/ui';
import type { BodyOf } from '@/lib/contract/operations';
import type { ProjectSummaryDto } from '@/lib/contract/dtos';
import { onAsync } from '@/lib/client/on-async';

export function EditProject({ project, onSave, onCancel }: { project: ProjectSummaryDto; onSave: (body: BodyOf<'updateProject'>) => Promise<void>; onCancel: () => void }) {
  const [note, setNote] = useState(project.note);
  const [password, setPassword] = useState('');
  const [clear, setClear] = useState(false);
  const [spa, setSpa] = useState(project.spa);
  const [dotfiles, setDotfiles] = useState(project.allow_dotfiles);
  return (
    <form
      className="space-y-3"
      onSubmit={onAsync(async (e) => {
        e.preventDefault();
        await onSave({ note, spa, allow_dotfiles: dotfiles, ...(clear ? { password: null } : password ? { password } : {}) });
      })}
    >
      <Field label="Note" value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
      <PasswordChangeFields hasPassword={project.has_password} password={password} onPassword={setPassword} clear={clear} onClear={setClear} />
      <CheckboxField checked={spa} onChange={setSpa}>
        Single-page app: unknown paths without an extension serve the index file
      </CheckboxField>
      <CheckboxField checked={dotfiles} onChange={setDotfiles}>
        Serve dotfiles (.env, .git/…); .well-known/ is always served
      </CheckboxField>
      <FormActions onCancel={onCancel} />
    </form>
  );
}
