import type { ButtonHTMLAttributes, InputHTMLAttributes, ReactNode } from 'react';

/**
 * The rich-text tag for a name inside a translated sentence (`t.rich(key, { b: boldName })`):
 * bold, and isolated so a Latin name keeps its own order inside right-to-left text.
 */
export function boldName(chunks: ReactNode) {
  return (
    <strong>
      <bdi>{chunks}</bdi>
    </strong>
  );
}

/** The rich-text tag for a name that keeps its own direction (`<bdi>{name}</bdi>` in a message). */
export function bdiTag(chunks: ReactNode) {
  return <bdi>{chunks}</bdi>;
}

/** The rich-text tag for what reads left to right in any language: a path, an address, a host name. */
export function ltrTag(chunks: ReactNode) {
  return <bdi dir="ltr">{chunks}</bdi>;
}

/** The rich-text tag for a setting, a command or code: monospace and left to right. */
export function codeTag(chunks: ReactNode) {
  return <code dir="ltr">{chunks}</code>;
}

/** The three tags together, as messages name them (`<bdi>`, `<ltr>`, `<code>`): `t.rich(key, { ...values, ...richTags })`. */
export const richTags = { bdi: bdiTag, ltr: ltrTag, code: codeTag };

/** Items read left to right (addresses, file names), each isolated, as a list in the reader's language. */
export function ltrItems(items: string[]) {
  return items.map((item, i) => (
    <bdi dir="ltr" key={i}>
      {item}
    </bdi>
  ));
}

type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';

/** A button's look, for a link that acts as one (a navigation, such as single sign-on's start). */
export function buttonClass(variant: ButtonVariant = 'primary'): string {
  const styles = {
    primary: 'bg-indigo-600 text-white hover:bg-indigo-500 disabled:bg-indigo-400',
    secondary:
      'bg-white text-zinc-900 ring-1 ring-zinc-300 hover:bg-zinc-100 dark:bg-zinc-900 dark:text-zinc-100 dark:ring-zinc-700 dark:hover:bg-zinc-800',
    danger: 'bg-red-600 text-white hover:bg-red-500 disabled:bg-red-400',
    ghost: 'text-zinc-700 hover:bg-zinc-200 dark:text-zinc-300 dark:hover:bg-zinc-800',
  }[variant];
  return `inline-flex items-center justify-center gap-2 rounded-md px-3 py-2 text-sm font-medium transition disabled:cursor-not-allowed max-sm:min-h-11 ${styles}`;
}

export function Button({
  variant = 'primary',
  className = '',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant }) {
  return <button className={`${buttonClass(variant)} ${className}`} {...props} />;
}

export function Field({
  label,
  hint,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: ReactNode }) {
  return (
    <label className="block text-sm">
      <span className="mb-1 block font-medium text-zinc-700 dark:text-zinc-300">{label}</span>
      <input
        className="block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 shadow-sm max-sm:min-h-11 placeholder:text-zinc-400 focus:border-indigo-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
        {...props}
      />
      {hint ? <span className="mt-1 block text-xs text-muted">{hint}</span> : null}
    </label>
  );
}

export function ErrorText({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300">
      {children}
    </p>
  );
}

export function Card({ children, className = '' }: { children: ReactNode; className?: string }) {
  return (
    <div className={`rounded-xl border border-zinc-200 bg-white p-4 shadow-sm dark:border-zinc-800 dark:bg-zinc-900 sm:p-6 ${className}`}>
      {children}
    </div>
  );
}

export function ProgressBar({ value, max, label }: { value: number; max: number; label: string }) {
  const pct = max > 0 ? Math.min(100, (value / max) * 100) : 0;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(pct)}
      className="h-2 w-full overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
    >
      <div className="h-full rounded-full bg-indigo-600 transition-[width] duration-200" style={{ width: `${pct}%` }} />
    </div>
  );
}

export function Badge({ children, tone = 'zinc' }: { children: ReactNode; tone?: 'zinc' | 'green' | 'amber' | 'red' | 'indigo' }) {
  const tones = {
    zinc: 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
    green: 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-300',
    amber: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300',
    red: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
    indigo: 'bg-indigo-100 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-300',
  }[tone];
  return <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ${tones}`}>{children}</span>;
}

/** A form's closing row: Cancel beside the submit button, right-aligned. */
/** Cancel and Save: the page's words where it has them, English by default. */
export function FormActions({ onCancel, cancelLabel = 'Cancel', saveLabel = 'Save' }: { onCancel: () => void; cancelLabel?: string; saveLabel?: string }) {
  return (
    <div className="flex justify-end gap-2">
      <Button type="button" variant="secondary" onClick={onCancel}>
        {cancelLabel}
      </Button>
      <Button type="submit" variant="primary">
        {saveLabel}
      </Button>
    </div>
  );
}

/**
 * The one checkbox of both consoles (issue 41, item 11): the native input, so it is keyboard
 * operable (Tab, Space) and announced as what it is, coloured with accent-color. Its label is
 * the touch target: 44 px tall on phones (CHECKBOX_LABEL).
 */
export function Checkbox({ className = '', ...props }: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  return (
    <input
      type="checkbox"
      className={`size-5 shrink-0 cursor-pointer accent-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:cursor-not-allowed dark:accent-indigo-500 ${className}`}
      {...props}
    />
  );
}
export const CHECKBOX_LABEL = 'flex cursor-pointer items-center gap-2 max-sm:min-h-11';

/** A labelled checkbox on one line. */
export function CheckboxField({ checked, onChange, children }: { checked: boolean; onChange: (checked: boolean) => void; children: ReactNode }) {
  return (
    <label className={`${CHECKBOX_LABEL} text-sm`}>
      <Checkbox checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {children}
    </label>
  );
}

/** A confirmation that an action worked, announced to screen readers. */
export function SuccessText({ children }: { children: ReactNode }) {
  return children ? (
    <p role="status" className="text-sm text-green-700 dark:text-green-400">
      {children}
    </p>
  ) : null;
}
