import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { FieldError, FormErrorNotice, invalidProps } from '../../components/FieldError';
import { formErrorsOf, messagesOf, PASSWORD_LENGTH, ruleSentence } from '../../components/field-errors';
import { ErrorNotice } from '../../components/ui';
import { useAcceptInvite, useInviteLookup } from '../../data/session/queries';

const FIELDS = { password: { label: 'New password' } };

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
  const refused = formErrorsOf(accept.error, FIELDS);
  const passwordErrors = messagesOf(formState.errors.password?.message, refused.of('password'));
  const confirmErrors = messagesOf(formState.errors.confirm?.message, []);
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
            <FormErrorNotice error={accept.error} elsewhere={refused.elsewhere} />
            <label className="field">
              <span>New password</span>
              <input
                type="password"
                autoComplete="new-password"
                {...invalidProps('password-error', passwordErrors)}
                {...register('password', {
                  minLength: {
                    value: PASSWORD_LENGTH.limit,
                    message: ruleSentence('minLength', FIELDS.password, PASSWORD_LENGTH),
                  },
                  required: ruleSentence('required', FIELDS.password),
                })}
              />
              <FieldError id="password-error" messages={passwordErrors} />
            </label>
            <label className="field">
              <span>Repeat the password</span>
              <input
                type="password"
                autoComplete="new-password"
                {...invalidProps('confirm-error', confirmErrors)}
                {...register('confirm', {
                  validate: (value) =>
                    value === watch('password') || 'The two passwords differ; type the same one twice.',
                })}
              />
              <FieldError id="confirm-error" messages={confirmErrors} />
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
