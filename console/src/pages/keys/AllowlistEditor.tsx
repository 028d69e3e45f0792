import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { call } from '../../api/client';
import { countOf } from '../../format';

interface Check {
  valid: boolean;
  normalized: string[];
  issues: { field: string; message: string }[];
}

export const parseEntries = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);

/** One address or CIDR range per line, checked by the API's own rules as you type (nothing is saved). */
export function AllowlistEditor({
  value,
  onChange,
  id,
}: {
  value: string;
  onChange: (text: string) => void;
  id: string;
}) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), 300);
    return () => clearTimeout(timer);
  }, [value]);
  const entries = parseEntries(debounced);
  const check = useQuery({
    queryKey: ['allowlist-check', entries.join(',')],
    queryFn: () => call<{ data: Check }>('POST', '/keys/allowlist-check', { entries }),
    enabled: entries.length > 0,
  });
  const issues = check.data?.data.issues ?? [];
  return (
    <div className="field">
      <label htmlFor={id}>Allowed IPs</label>
      <textarea
        id={id}
        rows={4}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={'203.0.113.10\n198.51.100.0/24'}
        aria-invalid={issues.length > 0 ? true : undefined}
        aria-describedby={`${id}-help`}
      />
      <small id={`${id}-help`} className="muted">
        One address or CIDR range per line. Production keys need at least one; reserved ranges, /0, host bits
        set and duplicates are refused.
      </small>
      {issues.length > 0 ? (
        <ul className="field-error" aria-live="polite">
          {issues.map((issue) => {
            const index = Number(/\[(\d+)\]/.exec(issue.field)?.[1] ?? -1);
            return (
              <li key={`${issue.field}${issue.message}`}>
                {index >= 0 ? <code>{entries[index]}</code> : null} {issue.message}
              </li>
            );
          })}
        </ul>
      ) : entries.length > 0 && check.data ? (
        <small className="ok-text" aria-live="polite">
          {countOf(check.data.data.normalized.length, { one: 'entry', other: 'entries' })} accepted.
        </small>
      ) : null}
    </div>
  );
}
