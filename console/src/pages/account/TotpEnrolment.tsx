import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../api/client';
import { CopyButton, ErrorNotice } from '../../components/ui';

/** Second-factor set-up: a new secret for an authenticator app, on only once a code from it is confirmed. */
export function TotpEnrolment() {
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const start = useMutation({
    mutationFn: () => call<{ data: { secret: string; uri: string } }>('POST', '/totp/start'),
  });
  const confirm = useMutation({
    mutationFn: () => call('POST', '/totp/confirm', { code }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['session'] }),
  });
  if (!start.data) {
    return (
      <>
        <ErrorNotice error={start.error} />
        <button
          type="button"
          className="button primary"
          onClick={() => start.mutate()}
          disabled={start.isPending}
        >
          Set up an authenticator app
        </button>
      </>
    );
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        confirm.mutate();
      }}
    >
      <p>
        Add this key to your authenticator app (it may also accept the setup link), then enter the code it
        shows.
      </p>
      <code className="secret" data-testid="totp-secret">
        {start.data.data.secret}
      </code>
      <div className="dialog-actions left">
        <CopyButton text={start.data.data.uri} label="Copy setup link" />
      </div>
      <ErrorNotice error={confirm.error} />
      <label className="field">
        <span>Code from the app</span>
        <input
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
      </label>
      <button type="submit" className="button primary" disabled={confirm.isPending}>
        Turn on two-factor sign-in
      </button>
    </form>
  );
}
