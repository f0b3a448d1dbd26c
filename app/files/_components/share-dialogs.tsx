'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { Dialog, QrCode } from '@/app/_components/client-ui';
import { PasswordChangeFields } from '@/app/_components/password-change-fields';
import { Button, Field, FormActions } from '@/app/_components/ui';
import type { BodyOf } from '@/lib/contract/operations';
import type { ShareSummaryDto } from '@/lib/contract/dtos';
import { onAsync } from '@/lib/client/on-async';
import { DownloadLimitField } from './download-limit-field';
import { toLocalInput } from './expiry-picker';
import { generatePassword } from './upload-form';

export function QrDialog({ open, link, onClose }: { open: boolean; link: string; onClose: () => void }) {
  const t = useTranslations('shares');
  return (
    <Dialog open={open} onClose={onClose} title={t('scan')}>
      <div className="flex flex-col items-center gap-3">
        <QrCode text={link} size={220} alt={t('qrAlt', { link })} />
        <p className="break-all text-xs text-muted" dir="ltr">
          {link}
        </p>
        <Button variant="secondary" onClick={onClose}>
          {t('close')}
        </Button>
      </div>
    </Dialog>
  );
}

/**
 * Edits note, expiry and password. Only what changed is sent: saving a new password leaves the
 * expiry exactly as it was. The expiry is a date and a time (local), never just a day.
 */
export function EditShareDialog({ share, open, onClose, onSave }: { share: ShareSummaryDto; open: boolean; onClose: () => void; onSave: (body: BodyOf<'updateShare'>) => Promise<void> }) {
  const t = useTranslations('shares');
  return (
    <Dialog open={open} onClose={onClose} title={t('editTitle')}>
      {open ? <EditShareForm share={share} onCancel={onClose} onSave={onSave} /> : null}
    </Dialog>
  );
}

function EditShareForm({ share, onSave, onCancel }: { share: ShareSummaryDto; onSave: (body: BodyOf<'updateShare'>) => Promise<void>; onCancel: () => void }) {
  const t = useTranslations('shares');
  const initialExpiry = share.expires_at ? toLocalInput(share.expires_at) : '';
  const [note, setNote] = useState(share.note);
  const [expiry, setExpiry] = useState(initialExpiry);
  const [password, setPassword] = useState('');
  const [clearPassword, setClearPassword] = useState(false);
  const initialLimit = share.max_downloads === null ? '' : String(share.max_downloads);
  const [limit, setLimit] = useState(initialLimit);
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const body: BodyOf<'updateShare'> = {};
    if (limit !== initialLimit) body.max_downloads = limit === '' ? null : Number(limit);
    if (note !== share.note) body.note = note;
    if (expiry !== initialExpiry) body.expires_at = expiry ? new Date(expiry).toISOString() : null;
    if (clearPassword) body.password = null;
    else if (password) body.password = password;
    if (Object.keys(body).length === 0) return onCancel();
    await onSave(body);
  }
  return (
    <form onSubmit={onAsync(submit)} className="space-y-3">
      <Field label={t('note')} value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
      <div className="flex items-end gap-2">
        <div className="flex-1">
          {/* A new expiry cannot be in the past (the form will not submit it); an unchanged one is not re-sent. */}
          <Field
            label={t('expiresField')}
            type="datetime-local"
            value={expiry}
            min={expiry !== initialExpiry ? toLocalInput(new Date().toISOString()) : undefined}
            onChange={(e) => setExpiry(e.target.value)}
          />
        </div>
        {expiry ? (
          <Button type="button" variant="secondary" onClick={() => setExpiry('')}>
            {t('never')}
          </Button>
        ) : null}
      </div>
      <PasswordChangeFields
        hasPassword={share.has_password}
        password={password}
        onPassword={setPassword}
        clear={clearPassword}
        onClear={setClearPassword}
        generate={generatePassword}
        labels={{ newPassword: t('newPassword'), password: t('passwordOptional'), generate: t('generate'), remove: t('removePassword') }}
      />
      <DownloadLimitField label={t('limitField', { count: share.download_count })} value={limit} onChange={setLimit} />
      <FormActions onCancel={onCancel} cancelLabel={t('cancel')} saveLabel={t('save')} />
    </form>
  );
}
