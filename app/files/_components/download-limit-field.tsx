'use client';

import { useTranslations } from 'next-intl';
import { Field } from '@/app/_components/ui';

/** The optional max_downloads of a share, typed as a whole number (empty: unlimited). */
export function DownloadLimitField({ label, value, onChange, disabled }: { label: string; value: string; onChange: (value: string) => void; disabled?: boolean }) {
  const t = useTranslations('upload');
  return (
    <Field
      label={label}
      type="number"
      min={1}
      step={1}
      inputMode="numeric"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      disabled={disabled}
      hint={t('limitHint')}
    />
  );
}
