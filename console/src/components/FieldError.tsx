import { ConsoleError } from '../api/client';
import { ErrorNotice } from './ui';

/**
 * A field's problems, beside the field: one sentence, or a list when several entries are
 * wrong. Give the field `aria-describedby={id}` and `aria-invalid` while there are messages.
 */
export function FieldError({ id, messages }: { id: string; messages: readonly string[] }) {
  if (messages.length === 0) return null;
  if (messages.length === 1) {
    return (
      <small className="field-error" id={id}>
        {messages[0]}
      </small>
    );
  }
  return (
    <ul className="field-error" id={id}>
      {messages.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}

/** `aria-invalid` and `aria-describedby` of a field showing `messages` in FieldError `id`. */
export const invalidProps = (id: string, messages: readonly string[], describedBy?: string) =>
  messages.length > 0
    ? { 'aria-invalid': true as const, 'aria-describedby': describedBy ? `${id} ${describedBy}` : id }
    : describedBy
      ? { 'aria-describedby': describedBy }
      : {};

/**
 * A form's notice above its fields: for a refusal of its fields, only that the form has
 * problems (each is said beside its field) and what belongs to no field; any other failure
 * as ErrorNotice tells it.
 */
export function FormErrorNotice({ error, elsewhere }: { error: unknown; elsewhere: readonly string[] }) {
  if (!error) return null;
  if (!(error instanceof ConsoleError) || error.body.code !== 'VALIDATION_FAILED') {
    return <ErrorNotice error={error} />;
  }
  const placed = (error.body.details?.issues?.length ?? 0) > elsewhere.length;
  return (
    <div className="notice notice-error" role="alert">
      <strong>
        {placed ? 'Some fields need a change; each says what beside it.' : 'This could not be saved.'}
      </strong>
      {elsewhere.length > 0 ? (
        <ul>
          {elsewhere.map((sentence) => (
            <li key={sentence}>{sentence}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
