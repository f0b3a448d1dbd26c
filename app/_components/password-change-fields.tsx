'use client';

import { Button, CheckboxField, Field } from './ui';

/**
 * Setting, replacing or removing a password on something that may have one (a share, a hosted
 * project): the field, an optional Generate button, and "Remove the password" when one is set.
 */
export function PasswordChangeFields({
  hasPassword,
  password,
  onPassword,
  clear,
  onClear,
  generate,
}: {
  hasPassword: boolean;
  password: string;
  onPassword: (value: string) => void;
  clear: boolean;
  onClear: (clear: boolean) => void;
  /** A new random password; without it, no Generate button. */
  generate?: () => string;
}) {
  const field = (
    <Field
      label={hasPassword ? 'New password (leave empty to keep)' : 'Password (optional)'}
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
            Generate
          </Button>
        </div>
      ) : (
        field
      )}
      {hasPassword ? (
        <CheckboxField checked={clear} onChange={onClear}>
          Remove the password
        </CheckboxField>
      ) : null}
    </>
  );
}
