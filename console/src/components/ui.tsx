import * as RadixDialog from '@radix-ui/react-dialog';
import { type ReactNode, useState } from 'react';
import { ConsoleError } from '../api/client';
import { formErrorsOf } from './field-errors';

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: string;
  actions?: ReactNode;
}) {
  return (
    <div className="page-header">
      <div>
        <h1>{title}</h1>
        {description ? <p className="muted">{description}</p> : null}
      </div>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </div>
  );
}

/** A failed call as the API told it: message, the fix, and the request id to look it up by. */
export function ErrorNotice({ error }: { error: unknown }) {
  if (!error) return null;
  if (error instanceof ConsoleError) {
    // A refusal of fields (a filter, say) is told in sentences, each once; its headline would repeat them.
    const sentences = formErrorsOf(error, {}).elsewhere;
    return (
      <div className="notice notice-error" role="alert">
        {sentences.length === 1 ? (
          <strong>{sentences[0]}</strong>
        ) : sentences.length > 1 ? (
          <ul>
            {sentences.map((sentence) => (
              <li key={sentence}>{sentence}</li>
            ))}
          </ul>
        ) : (
          <strong>{error.body.message}</strong>
        )}
        {error.body.requestId ? (
          <div className="notice-meta">
            {error.body.code} · request <code>{error.body.requestId}</code>
          </div>
        ) : null}
      </div>
    );
  }
  return (
    <div className="notice notice-error" role="alert">
      {String((error as Error).message ?? error)}
    </div>
  );
}

export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content className="dialog" aria-describedby={description ? undefined : undefined}>
          <RadixDialog.Title className="dialog-title">{title}</RadixDialog.Title>
          {description ? (
            <RadixDialog.Description className="muted">{description}</RadixDialog.Description>
          ) : (
            <RadixDialog.Description className="visually-hidden">{title}</RadixDialog.Description>
          )}
          {children}
          <RadixDialog.Close asChild>
            <button type="button" className="dialog-close" aria-label="Close">
              ×
            </button>
          </RadixDialog.Close>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="button secondary"
      onClick={async () => {
        await navigator.clipboard?.writeText(text).catch(() => undefined);
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      }}
    >
      {copied ? 'Copied' : label}
    </button>
  );
}

/** Dates are written by the one formatting module; pages that import them from here still work. */

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <h2>{title}</h2>
      {children}
    </div>
  );
}

/** A table's column headings; a falsy entry (a column the role does not see) is left out. */
export function TableHead({ columns }: { columns: (string | false)[] }) {
  return (
    <thead>
      <tr>
        {columns.filter(Boolean).map((column) => (
          <th scope="col" key={column as string}>
            {column}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** What an action did, announced politely to screen readers; nothing when there is no message. */
export function OkNotice({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div className="notice notice-ok" role="status">
      {message}
    </div>
  );
}
