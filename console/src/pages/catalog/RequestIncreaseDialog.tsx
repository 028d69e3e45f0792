import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FieldError, FormErrorNotice, invalidProps } from '../../components/FieldError';
import { formErrorsOf, messagesOf, ruleSentence } from '../../components/field-errors';
import { Dialog } from '../../components/ui';
import { type Allocation, useRequestIncrease } from '../../data/catalog/queries';
import { countOf, formatNumber } from '../../format';

const FIELDS = { requestedQuantity: { label: 'Extra keys' } };

const OUTCOME: Record<string, string> = {
  approved: 'Approved at once: the allocation has grown.',
  pending: 'Sent: the publisher decides. Its answer appears in the requests below.',
  rejected: 'Refused: this publisher does not take increase requests.',
};

/** Asks the publisher for more keys on a grant: the service of POST /allocations/requests. */
export function RequestIncreaseDialog({
  allocation,
  emphasis,
}: {
  allocation: Allocation;
  emphasis: boolean;
}) {
  const [open, setOpen] = useState(false);
  const { register, handleSubmit, reset, formState } = useForm<{ requestedQuantity: number }>({
    defaultValues: { requestedQuantity: Math.max(allocation.quantityLimit, 10) },
  });
  const request = useRequestIncrease();
  const refused = formErrorsOf(request.error, FIELDS);
  const quantityErrors = messagesOf(
    formState.errors.requestedQuantity?.message,
    refused.of('requestedQuantity'),
  );
  return (
    <>
      <button
        type="button"
        className={`button small ${emphasis ? 'primary' : 'secondary'}`}
        onClick={() => setOpen(true)}
      >
        Request more keys
      </button>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) {
            request.reset();
            reset();
          }
        }}
        title={`Request more keys for ${allocation.skuCode}`}
        description={`${allocation.publisherCompanyName} receives the request. ${formatNumber(allocation.remaining)} of ${countOf(allocation.quantityLimit, 'key')} left.`}
      >
        {request.data ? (
          <p role="status" className="notice">
            {OUTCOME[request.data.status] ?? request.data.status}
          </p>
        ) : (
          <form
            onSubmit={handleSubmit((form) =>
              request.mutate({ grantId: allocation.id, requestedQuantity: Number(form.requestedQuantity) }),
            )}
            noValidate
          >
            <FormErrorNotice error={request.error} elsewhere={refused.elsewhere} />
            <label className="field">
              <span>Extra keys</span>
              <input
                type="number"
                min={1}
                {...invalidProps('increase-quantity-error', quantityErrors)}
                {...register('requestedQuantity', {
                  required: ruleSentence('required', FIELDS.requestedQuantity),
                  min: { value: 1, message: ruleSentence('minimum', FIELDS.requestedQuantity, { limit: 1 }) },
                })}
              />
              <FieldError id="increase-quantity-error" messages={quantityErrors} />
            </label>
            <div className="dialog-actions">
              <button type="submit" className="button primary" disabled={request.isPending}>
                Send request
              </button>
            </div>
          </form>
        )}
      </Dialog>
    </>
  );
}
