import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { FieldError, FormErrorNotice, invalidProps } from '../../components/FieldError';
import { formErrorsOf, messagesOf, PASSWORD_LENGTH, ruleSentence } from '../../components/field-errors';
import { useSession } from '../../components/session';
import { ErrorNotice, PageHeader } from '../../components/ui';
import { useChangePassword } from '../../data/account/queries';
import { useSignOutEverywhere } from '../../data/session/queries';
import { SecondFactorCard } from './SecondFactorCard';
import { TotpEnrolment } from './TotpEnrolment';

const FIELDS = {
  currentPassword: { label: 'Current password' },
  newPassword: { label: 'New password' },
};

interface PasswordForm {
  currentPassword: string;
  newPassword: string;
}

export function AccountPage() {
  const session = useSession();
  const navigate = useNavigate();
  const { register, handleSubmit, reset, formState } = useForm<PasswordForm>();
  const password = useChangePassword(reset, (notice) => navigate('/sign-in', { state: { notice } }));
  const everywhere = useSignOutEverywhere(() => navigate('/sign-in'));
  const refused = formErrorsOf(password.error, FIELDS);
  const currentErrors = messagesOf(formState.errors.currentPassword?.message, refused.of('currentPassword'));
  const newErrors = messagesOf(formState.errors.newPassword?.message, refused.of('newPassword'));
  return (
    <>
      <PageHeader
        title="Your account"
        description={`${session.user.email} · ${session.user.role} of ${session.company.name}`}
      />
      <div className="grid-2">
        <section className="card">
          <h2>Password</h2>
          <form onSubmit={handleSubmit((form) => password.mutate(form))} noValidate>
            <FormErrorNotice error={password.error} elsewhere={refused.elsewhere} />
            {password.isSuccess ? (
              <p className="notice notice-ok" role="status">
                Password changed. Every other session has ended.
              </p>
            ) : null}
            <label className="field">
              <span>Current password</span>
              <input
                type="password"
                autoComplete="current-password"
                {...invalidProps('current-password-error', currentErrors)}
                {...register('currentPassword', {
                  required: ruleSentence('required', FIELDS.currentPassword),
                })}
              />
              <FieldError id="current-password-error" messages={currentErrors} />
            </label>
            <label className="field">
              <span>New password (at least 12 characters)</span>
              <input
                type="password"
                autoComplete="new-password"
                {...invalidProps('new-password-error', newErrors)}
                {...register('newPassword', {
                  required: ruleSentence('required', FIELDS.newPassword),
                  minLength: {
                    value: PASSWORD_LENGTH.limit,
                    message: ruleSentence('minLength', FIELDS.newPassword, PASSWORD_LENGTH),
                  },
                })}
              />
              <FieldError id="new-password-error" messages={newErrors} />
            </label>
            <button type="submit" className="button primary" disabled={password.isPending}>
              Change password
            </button>
          </form>
        </section>
        <section className="card">
          <h2>Two-factor sign-in</h2>
          {session.user.totpEnabled ? <SecondFactorCard /> : <TotpEnrolment />}
        </section>
        <section className="card">
          <h2>Sessions</h2>
          <p className="muted">
            Sessions end after 30 minutes without activity and 12 hours after sign-in. Signing out everywhere
            ends them on every device.
          </p>
          <ErrorNotice error={everywhere.error} />
          <button type="button" className="button danger" onClick={() => everywhere.mutate()}>
            Sign out everywhere
          </button>
        </section>
      </div>
    </>
  );
}
