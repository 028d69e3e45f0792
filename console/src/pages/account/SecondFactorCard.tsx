import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConsoleError, call } from '../../api/client';
import { ErrorNotice } from '../../components/ui';
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
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [answer, setAnswer] = useState('');
  const left = useQuery({
    queryKey: ['recovery-codes'],
    queryFn: () => call<{ data: { left: number | null } }>('GET', '/totp/recovery-codes'),
  });
  const onError = (error: Error) => {
    if (error instanceof ConsoleError && error.status === 401) {
      queryClient.clear();
      navigate('/sign-in', { state: { notice: error.body.message } });
    }
  };
  const regenerate = useMutation({
    mutationFn: () =>
      call<{ data: { recoveryCodes: string[] } }>('POST', '/totp/recovery-codes', proofOf(answer)),
    onSuccess: () => setAnswer(''),
    onError,
  });
  const disable = useMutation({
    mutationFn: () => call('POST', '/totp/disable', proofOf(answer)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['session'] }),
    onError,
  });
  if (regenerate.data) {
    return (
      <RecoveryCodes
        codes={regenerate.data.data.recoveryCodes}
        onDone={() => {
          regenerate.reset();
          void queryClient.invalidateQueries({ queryKey: ['recovery-codes'] });
        }}
      />
    );
  }
  const count = left.data?.data.left;
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
      <ErrorNotice error={regenerate.error ?? disable.error} />
      <label className="field">
        <span>Code from the app, or a recovery code</span>
        <input
          autoComplete="one-time-code"
          value={answer}
          onChange={(event) => setAnswer(event.target.value)}
        />
      </label>
      <div className="dialog-actions left">
        <button
          type="button"
          className="button secondary"
          disabled={regenerate.isPending || answer.trim() === ''}
          onClick={() => regenerate.mutate()}
        >
          New recovery codes
        </button>
        <button
          type="button"
          className="button danger"
          disabled={disable.isPending || answer.trim() === ''}
          onClick={() => disable.mutate()}
        >
          Turn off
        </button>
      </div>
    </form>
  );
}
