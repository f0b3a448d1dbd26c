'use client';

import { Button, CheckboxField, Field } from './ui';

/**
 * Setting, replacing or removing a password on something that may have one (a share, a hosted
 * project): the field, an optional Generate button, and "Remove the password" when one is set.
 * Its words come from the page (`labels`), English where the page has no messages.
 */
const ENGLISH = { newPassword: 'New password (leave empty to keep)', password: 'Password (optional)', generate: 'Generate', remove: 'Remove the password' };

export function PasswordChangeFields({
  hasPassword,
  password,
  onPassword,
  clear,
  onClear,
  generate,
  labels = ENGLISH,
}: {
  hasPassword: boolean;
  password: string;
  onPassword: (value: string) => void;
  clear: boolean;
  onClear: (clear: boolean) => void;
  /** A new random password; without it, no Generate button. */
  generate?: () => string;
  labels?: typeof ENGLISH;
}) {
  const field = (
    <Field
      label={hasPassword ? labels.newPassword : labels.password}
      value={password}
      autoComplete="off"
      disabled={clear}
      onChange={(e) => onPassword(e.target.value)}
    />
  );
  return (
    <>
      {generate ? (
        <div className="flex items-end gap-2">
          <div className="flex-1">{field}</div>
          <Button type="button" variant="secondary" onClick={() => onPassword(generate())} disabled={clear}>
            {labels.generate}
          </Button>
        </div>
      ) : (
        field
      )}
      {hasPassword ? (
        <CheckboxField checked={clear} onChange={onClear}>
          {labels.remove}
        </CheckboxField>
      ) : null}
    </>
  );
}
