import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { Role } from '../../api/client';
import { FieldError, FormErrorNotice, invalidProps } from '../../components/FieldError';
import { formErrorsOf, messagesOf, ruleSentence } from '../../components/field-errors';
import { CopyButton, Dialog } from '../../components/ui';
import { useInvite } from '../../data/team/queries';
import { ROLE_DUTIES, ROLES } from './role-duties';

const FIELDS = { email: { label: 'Email' }, role: { label: 'Role' } };

/** An owner's invite: the email, a role chosen with what it may do in view, then the link to copy. */
export function InviteDialog() {
  const [open, setOpen] = useState(false);
  const { register, handleSubmit, reset, formState } = useForm<{ email: string; role: Role }>({
    defaultValues: { role: 'developer' },
  });
  const invite = useInvite();
  const refused = formErrorsOf(invite.error, FIELDS);
  const emailErrors = messagesOf(formState.errors.email?.message, refused.of('email'));
  const roleErrors = refused.of('role');
  return (
    <>
      <button type="button" className="button primary" onClick={() => setOpen(true)}>
        Invite a teammate
      </button>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) {
            invite.reset();
            reset();
          }
        }}
        title="Invite a teammate"
        description="The link works once, for 72 hours."
      >
        {invite.data ? (
          <div className="secret-box">
            <div className="muted small">Invite link for {invite.data.email}</div>
            <code className="secret" data-testid="invite-link">
              {invite.data.link}
            </code>
            <p className="muted small" data-testid="invite-delivery">
              {invite.data.emailed
                ? `It is also on its way to ${invite.data.email} by e-mail.`
                : 'Send it to them yourself: this server sends no e-mail.'}
            </p>
            <div className="dialog-actions">
              <CopyButton text={invite.data.link} label="Copy link" />
            </div>
          </div>
        ) : (
          <form onSubmit={handleSubmit((form) => invite.mutate(form))} noValidate>
            <FormErrorNotice error={invite.error} elsewhere={refused.elsewhere} />
            <label className="field">
              <span>Email</span>
              <input
                type="email"
                {...invalidProps('invite-email-error', emailErrors)}
                {...register('email', { required: ruleSentence('required', FIELDS.email) })}
              />
              <FieldError id="invite-email-error" messages={emailErrors} />
            </label>
            <fieldset
              className="field role-choices"
              {...(roleErrors.length > 0 ? { 'aria-describedby': 'invite-role-error' } : {})}
            >
              <legend>Role</legend>
              {ROLES.map((role) => (
                <label key={role} className="role-choice">
                  <input type="radio" value={role} {...register('role')} />
                  <span>
                    <span className="strong">{role}</span>
                    <span className="muted small role-duty">{ROLE_DUTIES[role]}</span>
                  </span>
                </label>
              ))}
              <FieldError id="invite-role-error" messages={roleErrors} />
            </fieldset>
            <div className="dialog-actions">
              <button type="submit" className="button primary" disabled={invite.isPending}>
                Create invite link
              </button>
            </div>
          </form>
        )}
      </Dialog>
    </>
  );
}
