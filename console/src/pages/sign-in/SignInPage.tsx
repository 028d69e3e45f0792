import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { ConsoleError } from '../../api/client';
import { ErrorNotice } from '../../components/ui';
import { useSignIn } from '../../data/session/queries';

interface Form {
  email: string;
  password: string;
  totpCode: string;
  recoveryCode: string;
}

export function SignInPage() {
  const navigate = useNavigate();
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  const [needsCode, setNeedsCode] = useState(false);
  const [useRecoveryCode, setUseRecoveryCode] = useState(false);
  const { register, handleSubmit } = useForm<Form>();
  const secondFactor = (form: Form) => {
    if (!needsCode) return {};
    return useRecoveryCode ? { recoveryCode: form.recoveryCode } : { totpCode: form.totpCode };
  };
  const signIn = useSignIn(() => navigate('/'));
  const submit = (form: Form) =>
    signIn.mutate(
      { email: form.email, password: form.password, ...secondFactor(form) },
      {
        onError: (error) => {
          if (error instanceof ConsoleError && error.body.details?.reason === 'totp_required')
            setNeedsCode(true);
        },
      },
    );
  const codeAsked =
    signIn.error instanceof ConsoleError && signIn.error.body.details?.reason === 'totp_required';
  return (
    <main className="auth-page">
      <form className="auth-card" onSubmit={handleSubmit(submit)} noValidate>
        <div className="brand auth-brand">
          <span className="brand-mark" aria-hidden="true">
            S
          </span>
          <span className="brand-name">Seller console</span>
        </div>
        <h1>Sign in</h1>
        {notice && !signIn.error ? (
          <div className="notice notice-error" role="status">
            {notice}
          </div>
        ) : null}
        {codeAsked ? null : <ErrorNotice error={signIn.error} />}
        <label className="field">
          <span>Email</span>
          <input type="email" autoComplete="username" required {...register('email', { required: true })} />
        </label>
        <label className="field">
          <span>Password</span>
          <input
            type="password"
            autoComplete="current-password"
            required
            {...register('password', { required: true })}
          />
        </label>
        {needsCode && !useRecoveryCode ? (
          <label className="field">
            <span>Authenticator code</span>
            <input
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              {...register('totpCode')}
            />
            <small className="muted">The six digits your authenticator app shows now.</small>
          </label>
        ) : null}
        {needsCode && useRecoveryCode ? (
          <label className="field">
            <span>Recovery code</span>
            <input autoComplete="off" spellCheck={false} {...register('recoveryCode')} />
            <small className="muted">One of the codes you saved when you set up two-factor sign-in.</small>
          </label>
        ) : null}
        {needsCode ? (
          <button type="button" className="link-button" onClick={() => setUseRecoveryCode(!useRecoveryCode)}>
            {useRecoveryCode ? 'Use the authenticator app instead' : 'Lost your phone? Use a recovery code'}
          </button>
        ) : null}
        <button type="submit" className="button primary block" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="muted small">No account? Ask an owner of your company for an invite link.</p>
      </form>
    </main>
  );
}
