import { useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { ConsoleError, type Environment } from '../../api/client';
import { inEnvironment, useEnvironmentLink } from '../../components/EnvironmentInAddress';
import { ErrorNotice } from '../../components/ui';
import { useFindByKeyCode } from '../../data/orders/queries';

/** The company's other environment holds the key: said with a link, as the answer's details name it. */
function elsewhereOf(error: unknown): { environment: Environment; readableId: string } | null {
  if (!(error instanceof ConsoleError) || error.status !== 404) return null;
  const { otherEnvironment, readableId } = error.body.details ?? {};
  if (otherEnvironment !== 'sandbox' && otherEnvironment !== 'production') return null;
  return typeof readableId === 'string' ? { environment: otherEnvironment, readableId } : null;
}

/**
 * Finds the order holding a key code a buyer sent support. The code goes in a POST body (never
 * the address) and the field is emptied once sent: the answer is the order, never the code.
 */
export function KeyCodeSearch() {
  const link = useEnvironmentLink();
  const navigate = useNavigate();
  const field = useRef<HTMLInputElement>(null);
  const search = useFindByKeyCode((match) => navigate(link(`/orders/${match.readableId}`)));
  const elsewhere = elsewhereOf(search.error);
  return (
    <form
      className="card filters"
      aria-labelledby="key-code-title"
      onSubmit={(event) => {
        event.preventDefault();
        const input = field.current;
        const code = input?.value.trim() ?? '';
        if (!input || code === '') return;
        input.value = '';
        search.mutate(code);
      }}
    >
      <h2 id="key-code-title" className="visually-hidden">
        Find an order by key code
      </h2>
      <label className="field grow">
        <span>Key code a buyer sent</span>
        <input ref={field} name="keyCode" autoComplete="off" spellCheck={false} required />
      </label>
      <div className="filter-actions">
        <button type="submit" className="button primary" disabled={search.isPending}>
          Find the order
        </button>
      </div>
      {elsewhere ? (
        <div className="notice" role="status">
          No order of this environment holds that key; an order in {elsewhere.environment} does:{' '}
          <Link to={inEnvironment(`/orders/${elsewhere.readableId}`, elsewhere.environment)}>
            open it in {elsewhere.environment}
          </Link>
          .
        </div>
      ) : (
        <ErrorNotice error={search.error} />
      )}
    </form>
  );
}
