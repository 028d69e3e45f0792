import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { call } from '../../api/client';
import { ErrorNotice, formatDate } from '../../components/ui';

export interface Footprint {
  countries: string[];
  currencies: string[];
  updatedAt: string | null;
}

const listOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);

/** Both footprint sets replaced in one call: the service (validation, codes) of PUT /me/footprint. */
export function FootprintEditor({ footprint, editable }: { footprint: Footprint; editable: boolean }) {
  const queryClient = useQueryClient();
  const { register, handleSubmit, reset } = useForm({
    defaultValues: { countries: footprint.countries.join(', '), currencies: footprint.currencies.join(', ') },
  });
  const save = useMutation({
    mutationFn: (form: { countries: string; currencies: string }) =>
      call<{ data: Footprint }>('PUT', '/footprint', {
        countries: listOf(form.countries),
        currencies: listOf(form.currencies),
      }),
    onSuccess: ({ data }) => {
      reset({ countries: data.countries.join(', '), currencies: data.currencies.join(', ') });
      return queryClient.invalidateQueries({ queryKey: ['company'] });
    },
  });
  return (
    <form onSubmit={handleSubmit((form) => save.mutate(form))} noValidate>
      <ErrorNotice error={save.error} />
      {save.isSuccess ? (
        <p className="notice" role="status">
          Footprint saved.
        </p>
      ) : null}
      <label className="field">
        <span>Countries you sell in (ISO codes, comma separated)</span>
        <input {...register('countries')} readOnly={!editable} />
      </label>
      <label className="field">
        <span>Currencies you sell in</span>
        <input {...register('currencies')} readOnly={!editable} />
      </label>
      <p className="small muted">
        Last changed {formatDate(save.data?.data.updatedAt ?? footprint.updatedAt)}.
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
