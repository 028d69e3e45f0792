import { useState } from 'react';
import { FieldError, FormErrorNotice, invalidProps } from '../../components/FieldError';
import { formErrorsOf } from '../../components/field-errors';
import { QrCode } from '../../components/QrCode';
import { CopyButton, ErrorNotice } from '../../components/ui';
import { useConfirmTotp, useRefreshSession, useStartTotp } from '../../data/account/queries';
import { RecoveryCodes } from './RecoveryCodes';

/**
 * Second-factor set-up: a new secret for an authenticator app (a QR code, or the key to type),
 * on only once a code from it is confirmed; then the recovery codes, shown once.
 */
export function TotpEnrolment() {
  const [code, setCode] = useState('');
  const start = useStartTotp();
  const confirm = useConfirmTotp();
  const refreshSession = useRefreshSession();
  const codeErrors = formErrorsOf(confirm.error, { code: { label: 'Code from the app' } });
  if (confirm.data) {
    return <RecoveryCodes codes={confirm.data.recoveryCodes} onDone={refreshSession} />;
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
        confirm.mutate(code);
      }}
    >
      <p>Scan this code with your authenticator app, then enter the six digits it shows.</p>
      <QrCode text={start.data.uri} label="QR code to add this console to an authenticator app" />
      <details className="manual-key">
        <summary>Cannot scan it? Type the key instead</summary>
        <code className="secret" data-testid="totp-secret">
          {start.data.secret}
        </code>
        <div className="dialog-actions left">
          <CopyButton text={start.data.uri} label="Copy setup link" />
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
