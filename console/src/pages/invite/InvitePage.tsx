import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { ErrorNotice, fieldErrorOf } from '../../components/ui';
import { useAcceptInvite, useInviteLookup } from '../../data/session/queries';

interface Form {
  password: string;
  confirm: string;
}

/** The invite link's page: the token travels in the fragment (never sent in a URL to the server). */
export function InvitePage() {
  const token = window.location.hash.slice(1);
  const navigate = useNavigate();
  const invite = useInviteLookup(token);
  const { register, handleSubmit, formState, watch } = useForm<Form>({ mode: 'onBlur' });
  const accept = useAcceptInvite(token, () => {
    window.history.replaceState(null, '', window.location.pathname);
    navigate('/');
  });
  const passwordRefused = fieldErrorOf(accept.error, 'password');
  const passwordError = formState.errors.password?.message ?? passwordRefused;
  return (
    <main className="auth-page">
      <div className="auth-card">
        <h1>Join the seller console</h1>
        {!token ? <p role="alert">This page needs the full invite link.</p> : null}
        <ErrorNotice error={invite.error} />
        {invite.data ? (
          <form onSubmit={handleSubmit((form) => accept.mutate(form))} noValidate>
            <p>
              You are invited as <strong>{invite.data.role}</strong> with <strong>{invite.data.email}</strong>
              . Choose a password of at least 12 characters.
            </p>
            <ErrorNotice error={passwordRefused ? null : accept.error} />
            <label className="field">
              <span>New password</span>
              <input
                type="password"
                autoComplete="new-password"
                aria-invalid={passwordError ? true : undefined}
                aria-describedby={passwordError ? 'password-error' : undefined}
                {...register('password', {
                  minLength: { value: 12, message: 'At least 12 characters.' },
                  required: 'Required.',
                })}
              />
              {passwordError ? (
                <small id="password-error" className="field-error">
                  {passwordError}
                </small>
              ) : null}
            </label>
            <label className="field">
              <span>Repeat the password</span>
              <input
                type="password"
                autoComplete="new-password"
                aria-invalid={formState.errors.confirm ? true : undefined}
                {...register('confirm', {
                  validate: (value) => value === watch('password') || 'The two differ.',
                })}
              />
              {formState.errors.confirm ? (
                <small className="field-error">{formState.errors.confirm.message}</small>
              ) : null}
            </label>
            <button type="submit" className="button primary block" disabled={accept.isPending}>
              Set password and sign in
            </button>
          </form>
        ) : null}
      </div>
    </main>
  );
}
