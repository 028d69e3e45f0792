import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Dialog, ErrorNotice } from '../../components/ui';
import {
  type CatalogEntry,
  type Endpoint,
  type SavedEndpoint,
  useSaveEndpoint,
} from '../../data/webhooks/queries';

interface Form {
  url: string;
  description: string;
  everything: boolean;
  eventTypes: string[];
}

/** Create or edit an endpoint: its URL and the event types it receives, each with an example payload. */
export function EndpointDialog({
  endpoint,
  catalog,
  onClose,
  onSaved,
}: {
  endpoint: Endpoint | null;
  catalog: CatalogEntry[];
  onClose: () => void;
  onSaved: (saved: SavedEndpoint) => void;
}) {
  const everything = endpoint ? endpoint.eventTypes.includes('*') : false;
  const { register, handleSubmit, watch, formState } = useForm<Form>({
    defaultValues: {
      url: endpoint?.url ?? '',
      description: endpoint?.description ?? '',
      everything,
      eventTypes: everything ? [] : (endpoint?.eventTypes ?? []),
    },
  });
  const [preview, setPreview] = useState(catalog[0]?.type ?? '');
  const save = useSaveEndpoint(onSaved);
  const submit = (form: Form) => {
    const body = { url: form.url.trim(), eventTypes: form.everything ? ['*'] : form.eventTypes };
    const description = form.description.trim();
    save.mutate(
      endpoint
        ? { id: endpoint.id, ...body, description: description || null }
        : { ...body, description: description || undefined },
    );
  };
  const all = watch('everything');
  const example = catalog.find((entry) => entry.type === preview)?.example;
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={endpoint ? 'Edit endpoint' : 'New webhook endpoint'}
      description="Events are signed with the endpoint's secret and retried for about 3.5 days when your server does not answer 2xx."
    >
      <form onSubmit={handleSubmit(submit)} noValidate>
        <ErrorNotice error={save.error} />
        <label className="field">
          <span>Endpoint URL</span>
          <input
            type="url"
            placeholder="https://shop.example.com/webhooks/sdapi"
            aria-invalid={formState.errors.url ? true : undefined}
            {...register('url', { required: 'Give the URL your server listens on.' })}
          />
          {formState.errors.url ? (
            <small className="field-error">{formState.errors.url.message}</small>
          ) : null}
        </label>
        <label className="field">
          <span>Description (optional)</span>
          <input {...register('description', { maxLength: 500 })} />
        </label>
        <fieldset className="field scopes">
          <legend>Events to send</legend>
          <label className="check-row">
            <input type="checkbox" {...register('everything')} />
            <span>Every event type, including ones added later</span>
          </label>
          {all
            ? null
            : catalog.map((entry) => (
                <label key={entry.type} className="check-row">
                  <input type="checkbox" value={entry.type} {...register('eventTypes')} />
                  <code>{entry.type}</code>
                </label>
              ))}
        </fieldset>
        <label className="field">
          <span>Example payload</span>
          <select value={preview} onChange={(event) => setPreview(event.target.value)}>
            {catalog.map((entry) => (
              <option key={entry.type} value={entry.type}>
                {entry.type}
              </option>
            ))}
          </select>
        </label>
        {example ? (
          <pre
            className="error-body example-payload"
            data-testid="example-payload"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
            tabIndex={0}
          >
            {JSON.stringify(example, null, 2)}
          </pre>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={save.isPending}>
            {endpoint ? 'Save endpoint' : 'Create endpoint'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
