import { useForm } from 'react-hook-form';
import { FieldError, FormErrorNotice, invalidProps } from '../../components/FieldError';
import { formErrorsOf, messagesOf } from '../../components/field-errors';
import { Dialog } from '../../components/ui';
import { type KeyActionRequest, type OrderAggregate, useKeyAction } from '../../data/orders/queries';
import { formatMoney } from '../../format';

export type KeyAction = 'refund' | 'chargeback' | 'return' | 'replace';

const TITLES: Record<KeyAction, string> = {
  refund: 'Refund keys',
  chargeback: 'Record a chargeback',
  return: 'Return keys',
  replace: 'Replace a defective key',
};

const DESCRIPTIONS: Record<KeyAction, string> = {
  refund: 'The keys are quarantined and their sale lines reversed, once per refund reference.',
  chargeback: 'As a refund, declared by the payment provider; a won dispute reinstates it.',
  return:
    'Never-revealed keys go back to stock, revealed ones to quarantine; money moves where the refund policy allows.',
  replace:
    "One new key of the same grant for a key the buyer reports as not working, within the grant's replacement policy.",
};

const FIELDS = {
  keyIds: { label: 'Keys', sentAs: ['keyId'] },
  reference: { label: 'Reference', sentAs: ['refundReference', 'chargebackReference'] },
  reason: { label: 'Reason' },
};

interface Form {
  keyIds: string[];
  reference: string;
  reason: string;
}

function requestOf(action: KeyAction, form: Form): KeyActionRequest {
  const reason = form.reason.trim() || undefined;
  if (action === 'replace') return { kind: 'replacements', body: { keyId: form.keyIds[0] ?? '', reason } };
  if (action === 'return')
    return { kind: 'returns', body: { keyIds: form.keyIds, reason: form.reason.trim() } };
  const reference = form.reference.trim();
  return {
    kind: 'refunds',
    body:
      action === 'refund'
        ? { type: 'refund', refundReference: reference, keyIds: form.keyIds, reason }
        : { type: 'chargeback', chargebackReference: reference, keyIds: form.keyIds, reason },
  };
}

/** What the picked keys were sold for: the order's unit price per key. */
function amountOf(order: OrderAggregate, keys: number): string {
  if (order.unitPriceCents === null) return 'No price recorded for this order';
  if (keys === 0) return 'Pick the keys to see the amount';
  const total = formatMoney(order.unitPriceCents * keys, order.currencyCode);
  return `${total} (${keys} × ${formatMoney(order.unitPriceCents, order.currencyCode)})`;
}

/** One dialog for the key actions of an order page: pick keys, give the reference or reason, confirm. */
export function KeyActionDialog({
  action,
  order,
  keyIds,
  onClose,
}: {
  action: KeyAction;
  order: OrderAggregate;
  keyIds: string[];
  onClose: () => void;
}) {
  const { register, handleSubmit, formState, watch } = useForm<Form>({
    defaultValues: { keyIds: action === 'replace' ? keyIds.slice(0, 1) : [], reference: '', reason: '' },
  });
  const act = useKeyAction(order.id, onClose);
  const needsReference = action === 'refund' || action === 'chargeback';
  const refused = formErrorsOf(act.error, FIELDS);
  const keyErrors = messagesOf(formState.errors.keyIds?.message, refused.of('keyIds'));
  const referenceErrors = messagesOf(formState.errors.reference?.message, refused.of('reference'));
  const reasonErrors = messagesOf(formState.errors.reason?.message, refused.of('reason'));
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? null : onClose())}
      title={TITLES[action]}
      description={DESCRIPTIONS[action]}
    >
      <form onSubmit={handleSubmit((form) => act.mutate(requestOf(action, form)))}>
        <fieldset
          className="field"
          {...(keyErrors.length > 0 ? { 'aria-describedby': 'key-action-keys-error' } : {})}
        >
          <legend>{action === 'replace' ? 'Key' : 'Keys'}</legend>
          {keyIds.map((id) => (
            <label key={id} className="check-row">
              <input
                type={action === 'replace' ? 'radio' : 'checkbox'}
                value={id}
                {...register('keyIds', { required: 'Pick at least one key.' })}
              />
              <span className="mono small">{id}</span>
            </label>
          ))}
          <FieldError id="key-action-keys-error" messages={keyErrors} />
        </fieldset>
        {needsReference ? (
          <label className="field">
            <span>{action === 'refund' ? 'Refund reference' : 'Chargeback reference'}</span>
            <input
              {...invalidProps('key-action-reference-error', referenceErrors)}
              {...register('reference', { required: 'A reference makes the declaration happen once.' })}
            />
            <FieldError id="key-action-reference-error" messages={referenceErrors} />
          </label>
        ) : null}
        {action === 'replace' ? null : (
          <p className="field" aria-live="polite">
            <span>{action === 'return' ? 'Amount, where the refund policy moves money' : 'Amount'}</span>
            <strong>{amountOf(order, [watch('keyIds')].flat().filter(Boolean).length)}</strong>
          </p>
        )}
        <label className="field">
          <span>{action === 'return' ? 'Reason' : 'Reason (optional)'}</span>
          <input
            {...invalidProps('key-action-reason-error', reasonErrors)}
            {...register('reason', { required: action === 'return' ? 'Say why the keys come back.' : false })}
          />
          <FieldError id="key-action-reason-error" messages={reasonErrors} />
        </label>
        <FormErrorNotice error={act.error} elsewhere={refused.elsewhere} />
        <div className="dialog-actions">
          <button type="button" className="button ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button danger" disabled={act.isPending}>
            {TITLES[action]}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
