import { useState } from 'react';
import { useNavigate } from 'react-router';
import { FieldError, FormErrorNotice, invalidProps } from '../../components/FieldError';
import { formErrorsOf } from '../../components/field-errors';
import {
  useDisableTotp,
  useRecoveryCodesLeft,
  useRefreshRecoveryCodes,
  useRegenerateRecoveryCodes,
} from '../../data/account/queries';
import { formatNumber } from '../../format';
import { RecoveryCodes } from './RecoveryCodes';

/** Six digits are the app's code; anything else is taken for a recovery code. */
const proofOf = (answer: string) => {
  const trimmed = answer.trim();
  return /^[0-9]{6}$/.test(trimmed) ? { code: trimmed } : { recoveryCode: trimmed };
};

/**
 * Two-factor sign-in while it is on: the recovery codes left, a new set, turning it off. Both
 * actions take a code from the app or a recovery code; a third wrong answer in one session ends
 * it, and the console returns to sign-in.
 */
export function SecondFactorCard() {
  const navigate = useNavigate();
  const [answer, setAnswer] = useState('');
  const left = useRecoveryCodesLeft();
  const refreshLeft = useRefreshRecoveryCodes();
  const onSessionEnded = (notice: string) => navigate('/sign-in', { state: { notice } });
  const regenerate = useRegenerateRecoveryCodes(() => setAnswer(''), onSessionEnded);
  const disable = useDisableTotp(onSessionEnded);
  if (regenerate.data) {
    return (
      <RecoveryCodes
        codes={regenerate.data.recoveryCodes}
        onDone={() => {
          regenerate.reset();
          void refreshLeft();
        }}
      />
    );
  }
  const count = left.data?.left;
  const failed = regenerate.error ?? disable.error;
  const refused = formErrorsOf(failed, {
    answer: { label: 'Code from the app, or a recovery code', sentAs: ['code', 'recoveryCode'] },
  });
  return (
    <form onSubmit={(event) => event.preventDefault()}>
      <p>
        <span className="pill pill-done">on</span> Sign-in asks for a code from your authenticator app.
      </p>
      <p data-testid="recovery-codes-left">
        {count === undefined || count === null
          ? 'Recovery codes: …'
          : `${formatNumber(count)} of your recovery codes ${count === 1 ? 'is' : 'are'} left.`}
        {count === 0
          ? ' Make a new set now: without them a lost phone needs an owner to reset your second factor.'
          : ''}
      </p>
      <FormErrorNotice error={failed} elsewhere={refused.elsewhere} />
      <label className="field">
        <span>Code from the app, or a recovery code</span>
        <input
          {...invalidProps('second-factor-answer-error', refused.of('answer'))}
          autoComplete="one-time-code"
          value={answer}
          onChange={(event) => setAnswer(event.target.value)}
        />
        <FieldError id="second-factor-answer-error" messages={refused.of('answer')} />
      </label>
      <div className="dialog-actions left">
        <button
          type="button"
          className="button secondary"
          disabled={regenerate.isPending || answer.trim() === ''}
          onClick={() => regenerate.mutate(proofOf(answer))}
        >
          New recovery codes
        </button>
        <button
          type="button"
          className="button danger"
          disabled={disable.isPending || answer.trim() === ''}
          onClick={() => disable.mutate(proofOf(answer))}
        >
          Turn off
        </button>
      </div>
    </form>
  );
}
