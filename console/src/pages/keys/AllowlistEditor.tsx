import { useEffect, useState } from 'react';
import { FieldError, invalidProps } from '../../components/FieldError';
import { formErrorsOf, sentenceOf } from '../../components/field-errors';
import { useAllowlistCheck } from '../../data/keys/queries';
import { countOf } from '../../format';

/** How a form that sends an allowlist names it: the API calls it `allowedIps` or `allowed_ips`. */
export const ALLOWLIST_FIELD = { label: 'Allowed IPs', sentAs: ['allowedIps', 'allowed_ips'] } as const;

export const parseEntries = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);

/**
 * One address or CIDR range per line, checked by the API's own rules as you type (nothing is
 * saved); `refused` is the failed save of the form around it, whose allowlist sentences show here too.
 */
export function AllowlistEditor({
  value,
  onChange,
  id,
  refused,
}: {
  value: string;
  onChange: (text: string) => void;
  id: string;
  refused?: unknown;
}) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), 300);
    return () => clearTimeout(timer);
  }, [value]);
  const entries = parseEntries(debounced);
  const check = useAllowlistCheck(entries);
  const checked = (check.data?.issues ?? []).map((issue) => sentenceOf(issue, ALLOWLIST_FIELD));
  const saved = formErrorsOf(refused, { allowlist: ALLOWLIST_FIELD }).of('allowlist');
  const messages = [...new Set([...checked, ...saved])];
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>Allowed IPs</label>
      <textarea
        id={id}
        rows={4}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={'203.0.113.10\n198.51.100.0/24'}
        {...invalidProps(errorId, messages, `${id}-help`)}
      />
      <small id={`${id}-help`} className="muted">
        One address or CIDR range per line. Production keys need at least one; reserved ranges, /0, host bits
        set and duplicates are refused.
      </small>
      <div aria-live="polite">
        <FieldError id={errorId} messages={messages} />
        {messages.length === 0 && entries.length > 0 && check.data ? (
          <small className="ok-text">
            {countOf(check.data.normalized.length, { one: 'entry', other: 'entries' })} accepted.
          </small>
        ) : null}
      </div>
    </div>
  );
}
