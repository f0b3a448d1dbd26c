'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { PasswordChangeFields } from '@/app/_components/password-change-fields';
import { CheckboxField, Field, FormActions } from '@/app/_components/ui';
import type { BodyOf } from '@/lib/contract/operations';
import type { ProjectSummaryDto } from '@/lib/contract/dtos';
import { onAsync } from '@/lib/client/on-async';

export function EditProject({ project, onSave, onCancel }: { project: ProjectSummaryDto; onSave: (body: BodyOf<'updateProject'>) => Promise<void>; onCancel: () => void }) {
  const t = useTranslations('projects');
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
      <Field label={t('note')} value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
      <PasswordChangeFields hasPassword={project.has_password} password={password} onPassword={setPassword} clear={clear} onClear={setClear}
        labels={{ newPassword: t('newPassword'), password: t('passwordOptional'), generate: t('generate'), remove: t('removePassword') }}
      />
      <CheckboxField checked={spa} onChange={setSpa}>
        {t('spaOption')}
      </CheckboxField>
      <CheckboxField checked={dotfiles} onChange={setDotfiles}>
        {t('dotfiles')}
      </CheckboxField>
      <FormActions onCancel={onCancel} cancelLabel={t('cancel')} saveLabel={t('save')} />
    </form>
  );
}
