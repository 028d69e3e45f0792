import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Dialog, ErrorNotice } from '../../components/ui';
import { type SecretOnce, useCreateKey } from '../../data/keys/queries';
import { AllowlistEditor, parseEntries } from './AllowlistEditor';

interface Form {
  name: string;
  scopes: string[];
  allowlist: string;
}

export function CreateKeyDialog({
  environment,
  grantable,
  optIn,
  onCreated,
}: {
  environment: string;
  grantable: string[];
  optIn: string[];
  onCreated: (secret: SecretOnce) => void;
}) {
  const [open, setOpen] = useState(false);
  const defaults = grantable.filter((scope) => !optIn.includes(scope));
  const { register, handleSubmit, control, reset, formState } = useForm<Form>({
    defaultValues: { name: '', scopes: defaults, allowlist: '' },
  });
  const create = useCreateKey((secret) => {
    setOpen(false);
    reset({ name: '', scopes: defaults, allowlist: '' });
    onCreated(secret);
  });
  return (
    <>
      <button type="button" className="button primary" onClick={() => setOpen(true)}>
        Create {environment} key
      </button>
      <Dialog open={open} onOpenChange={setOpen} title={`New ${environment} key`}>
        <form
          onSubmit={handleSubmit((form) =>
            create.mutate({
              name: form.name,
              scopes: form.scopes,
              allowedIps: parseEntries(form.allowlist),
            }),
          )}
          noValidate
        >
          <ErrorNotice error={create.error} />
          <label className="field">
            <span>Name</span>
            <input
              aria-invalid={formState.errors.name ? true : undefined}
              {...register('name', { required: 'Give the key a name.', maxLength: 100 })}
            />
            {formState.errors.name ? (
              <small className="field-error">{formState.errors.name.message}</small>
            ) : null}
          </label>
          <fieldset className="field scopes">
            <legend>Scopes</legend>
            {grantable.map((scope) => (
              <label key={scope} className="check-row">
                <input type="checkbox" value={scope} {...register('scopes', { required: true })} />
                <code>{scope}</code>
                {optIn.includes(scope) ? <span className="pill pill-waiting">opt-in</span> : null}
              </label>
            ))}
          </fieldset>
          <Controller
            control={control}
            name="allowlist"
            render={({ field }) => (
              <AllowlistEditor id="new-key-allowlist" value={field.value} onChange={field.onChange} />
            )}
          />
          <div className="dialog-actions">
            <button type="submit" className="button primary" disabled={create.isPending}>
              Create key
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
