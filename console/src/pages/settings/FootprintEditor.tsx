import { useForm } from 'react-hook-form';
import { FieldError, FormErrorNotice } from '../../components/FieldError';
import { formErrorsOf } from '../../components/field-errors';
import { type Footprint, useSaveFootprint } from '../../data/settings/queries';
import { formatDate, formatRelative } from '../../format';

type Field = 'countries' | 'currencies';

const listOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);

function CodesField({
  field,
  label,
  hint,
  editable,
  errors,
  register,
}: {
  field: Field;
  label: string;
  hint: string;
  editable: boolean;
  errors: string[];
  register: ReturnType<typeof useForm<Record<Field, string>>>['register'];
}) {
  const hintId = `footprint-${field}-hint`;
  const errorId = `footprint-${field}-error`;
  return (
    <div className="field">
      <label htmlFor={`footprint-${field}`}>{label}</label>
      <input
        id={`footprint-${field}`}
        {...register(field)}
        readOnly={!editable}
        autoCapitalize="characters"
        spellCheck={false}
        aria-invalid={errors.length > 0}
        aria-describedby={errors.length > 0 ? `${errorId} ${hintId}` : hintId}
      />
      <FieldError id={errorId} messages={errors} />
      <small className="muted" id={hintId}>
        {hint}
      </small>
    </div>
  );
}

/** Both footprint sets replaced in one call: the service (validation, codes) of PUT /me/footprint. */
export function FootprintEditor({ footprint, editable }: { footprint: Footprint; editable: boolean }) {
  const { register, handleSubmit, reset } = useForm<Record<Field, string>>({
    defaultValues: { countries: footprint.countries.join(', '), currencies: footprint.currencies.join(', ') },
  });
  const save = useSaveFootprint((saved) =>
    reset({ countries: saved.countries.join(', '), currencies: saved.currencies.join(', ') }),
  );
  const changedAt = save.data?.updatedAt ?? footprint.updatedAt;
  const refused = formErrorsOf(save.error, {
    countries: { label: 'Countries you sell in' },
    currencies: { label: 'Currencies you sell in' },
  });
  return (
    <form
      onSubmit={handleSubmit((form) =>
        save.mutate({ countries: listOf(form.countries), currencies: listOf(form.currencies) }),
      )}
      noValidate
    >
      <FormErrorNotice error={save.error} elsewhere={refused.elsewhere} />
      {save.isSuccess ? (
        <p className="notice" role="status">
          Footprint saved.
        </p>
      ) : null}
      <CodesField
        field="countries"
        label="Countries you sell in"
        hint="Two-letter ISO 3166-1 codes, such as DE, FR, US, separated by commas or spaces; any case."
        editable={editable}
        errors={refused.of('countries')}
        register={register}
      />
      <CodesField
        field="currencies"
        label="Currencies you sell in"
        hint="Three-letter ISO 4217 codes, such as EUR, USD; any case."
        editable={editable}
        errors={refused.of('currencies')}
        register={register}
      />
      <p className="small muted">
        {changedAt
          ? `Last changed ${formatDate(changedAt)} (${formatRelative(changedAt)}).`
          : 'Never declared.'}
      </p>
      {editable ? (
        <button type="submit" className="button primary" disabled={save.isPending}>
          Save footprint
        </button>
      ) : (
        <p className="muted">Only an owner can change the footprint.</p>
      )}
    </form>
  );
}
