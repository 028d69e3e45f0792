import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { FieldError, FormErrorNotice, invalidProps } from '../../components/FieldError';
import { type FieldSpec, formErrorsOf, messagesOf, ruleSentence } from '../../components/field-errors';
import { Dialog } from '../../components/ui';
import { type SecretOnce, useCreateKey } from '../../data/keys/queries';
import { ALLOWLIST_FIELD, AllowlistEditor, parseEntries } from './AllowlistEditor';

const NAME: FieldSpec = { label: 'Name' };
const SCOPES: FieldSpec = { label: 'Scopes' };
/** The API's limit on a key's name. */
const NAME_MAX = 100;

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
  const refused = formErrorsOf(create.error, { name: NAME, scopes: SCOPES, allowlist: ALLOWLIST_FIELD });
  const nameErrors = messagesOf(formState.errors.name?.message, refused.of('name'));
  const scopeErrors = messagesOf(formState.errors.scopes?.message, refused.of('scopes'));
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
          <FormErrorNotice error={create.error} elsewhere={refused.elsewhere} />
          <label className="field">
            <span>Name</span>
            <input
              {...invalidProps('new-key-name-error', nameErrors)}
              {...register('name', {
                required: ruleSentence('required', NAME),
                maxLength: { value: NAME_MAX, message: ruleSentence('maxLength', NAME, { limit: NAME_MAX }) },
              })}
            />
            <FieldError id="new-key-name-error" messages={nameErrors} />
          </label>
          <fieldset
            className="field scopes"
            {...(scopeErrors.length > 0 ? { 'aria-describedby': 'new-key-scopes-error' } : {})}
          >
            <legend>Scopes</legend>
            {grantable.map((scope) => (
              <label key={scope} className="check-row">
                <input
                  type="checkbox"
                  value={scope}
                  {...register('scopes', { required: ruleSentence('minItems', SCOPES, { limit: 1 }) })}
                />
                <code>{scope}</code>
                {optIn.includes(scope) ? <span className="pill pill-waiting">opt-in</span> : null}
              </label>
            ))}
            <FieldError id="new-key-scopes-error" messages={scopeErrors} />
          </fieldset>
          <Controller
            control={control}
            name="allowlist"
            render={({ field }) => (
              <AllowlistEditor
                id="new-key-allowlist"
                value={field.value}
                onChange={field.onChange}
                refused={create.error}
              />
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
