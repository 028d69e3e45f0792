import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FieldError, FormErrorNotice, invalidProps } from '../../components/FieldError';
import { type FieldSpec, formErrorsOf, messagesOf, ruleSentence } from '../../components/field-errors';
import { Dialog } from '../../components/ui';
import {
  type CatalogEntry,
  type Endpoint,
  type SavedEndpoint,
  useSaveEndpoint,
} from '../../data/webhooks/queries';

const FIELDS = {
  url: { label: 'Endpoint URL' },
  description: { label: 'Description' },
  eventTypes: { label: 'Events to send' },
} satisfies Record<string, FieldSpec>;
/** The API's limit on a description. */
const DESCRIPTION_MAX = 500;

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
  const refused = formErrorsOf(save.error, FIELDS);
  const urlErrors = messagesOf(formState.errors.url?.message, refused.of('url'));
  const descriptionErrors = messagesOf(formState.errors.description?.message, refused.of('description'));
  const eventErrors = refused.of('eventTypes');
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
        <FormErrorNotice error={save.error} elsewhere={refused.elsewhere} />
        <label className="field">
          <span>Endpoint URL</span>
          <input
            type="url"
            placeholder="https://shop.example.com/webhooks/sdapi"
            {...invalidProps('endpoint-url-error', urlErrors)}
            {...register('url', { required: ruleSentence('required', FIELDS.url) })}
          />
          <FieldError id="endpoint-url-error" messages={urlErrors} />
        </label>
        <label className="field">
          <span>Description (optional)</span>
          <input
            {...invalidProps('endpoint-description-error', descriptionErrors)}
            {...register('description', {
              maxLength: {
                value: DESCRIPTION_MAX,
                message: ruleSentence('maxLength', FIELDS.description, { limit: DESCRIPTION_MAX }),
              },
            })}
          />
          <FieldError id="endpoint-description-error" messages={descriptionErrors} />
        </label>
        <fieldset
          className="field scopes"
          {...(eventErrors.length > 0 ? { 'aria-describedby': 'endpoint-events-error' } : {})}
        >
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
          <FieldError id="endpoint-events-error" messages={eventErrors} />
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
