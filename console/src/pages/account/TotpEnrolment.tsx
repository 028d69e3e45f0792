import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../api/client';
import { FieldError, FormErrorNotice, invalidProps } from '../../components/FieldError';
import { formErrorsOf } from '../../components/field-errors';
import { QrCode } from '../../components/QrCode';
import { CopyButton, ErrorNotice } from '../../components/ui';
import { RecoveryCodes } from './RecoveryCodes';

/**
 * Second-factor set-up: a new secret for an authenticator app (a QR code, or the key to type),
 * on only once a code from it is confirmed; then the recovery codes, shown once.
 */
export function TotpEnrolment() {
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const start = useMutation({
    mutationFn: () => call<{ data: { secret: string; uri: string } }>('POST', '/totp/start'),
  });
  const confirm = useMutation({
    mutationFn: () => call<{ data: { recoveryCodes: string[] } }>('POST', '/totp/confirm', { code }),
  });
  const codeErrors = formErrorsOf(confirm.error, { code: { label: 'Code from the app' } });
  if (confirm.data) {
    return (
      <RecoveryCodes
        codes={confirm.data.data.recoveryCodes}
        onDone={() => queryClient.invalidateQueries({ queryKey: ['session'] })}
      />
    );
  }
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
      <p>Scan this code with your authenticator app, then enter the six digits it shows.</p>
      <QrCode text={start.data.data.uri} label="QR code to add this console to an authenticator app" />
      <details className="manual-key">
        <summary>Cannot scan it? Type the key instead</summary>
        <code className="secret" data-testid="totp-secret">
          {start.data.data.secret}
        </code>
        <div className="dialog-actions left">
          <CopyButton text={start.data.data.uri} label="Copy setup link" />
        </div>
      </details>
      <FormErrorNotice error={confirm.error} elsewhere={codeErrors.elsewhere} />
      <label className="field">
        <span>Code from the app</span>
        <input
          {...invalidProps('totp-code-error', codeErrors.of('code'))}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
        <FieldError id="totp-code-error" messages={codeErrors.of('code')} />
      </label>
      <button type="submit" className="button primary" disabled={confirm.isPending}>
        Turn on two-factor sign-in
      </button>
    </form>
  );
}
