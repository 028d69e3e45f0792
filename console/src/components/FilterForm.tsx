import { useSearchParams } from 'react-router';

export interface Filter {
  name: string;
  label: string;
  type?: 'datetime-local';
  placeholder?: string;
  /** The field takes the row's spare width (a search box). */
  grow?: boolean;
  /** A select: values, or [value, label] pairs. */
  options?: readonly (string | readonly [string, string])[];
}

const isTime = (filter: Filter) => filter.type === 'datetime-local';

/** The API query of the page's search parameters (local times become ISO instants). */
export function queryOf(params: URLSearchParams, filters: readonly Filter[]): URLSearchParams {
  const query = new URLSearchParams();
  for (const filter of filters) {
    const value = params.get(filter.name);
    if (value) query.set(filter.name, isTime(filter) ? new Date(value).toISOString() : value);
  }
  return query;
}

/** A filter bar kept in the URL, so a filtered page can be bookmarked and shared. */
export function FilterForm({ filters }: { filters: readonly Filter[] }) {
  const [params, setParams] = useSearchParams();
  return (
    <form
      className="card filters"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const next = new URLSearchParams();
        for (const filter of filters) {
          const value = String(form.get(filter.name) ?? '').trim();
          if (value) next.set(filter.name, value);
        }
        setParams(next);
      }}
    >
      {filters.map((filter) =>
        filter.options ? (
          <label key={filter.name} className="field">
            <span>{filter.label}</span>
            <select name={filter.name} defaultValue={params.get(filter.name) ?? ''}>
              <option value="">any</option>
              {filter.options.map((option) => {
                const [value, label] = typeof option === 'string' ? [option, option] : option;
                return (
                  <option key={value} value={value}>
                    {label}
                  </option>
                );
              })}
            </select>
          </label>
        ) : (
          <label key={filter.name} className={filter.grow ? 'field grow' : 'field'}>
            <span>{filter.label}</span>
            <input
              name={filter.name}
              type={filter.type ?? 'text'}
              placeholder={filter.placeholder}
              defaultValue={params.get(filter.name) ?? ''}
            />
          </label>
        ),
      )}
      <div className="filter-actions">
        <button type="submit" className="button primary">
          Search
        </button>
        <button type="button" className="button ghost" onClick={() => setParams(new URLSearchParams())}>
          Clear
        </button>
      </div>
    </form>
  );
}
