import type { UseMutationResult } from '@tanstack/react-query';
import { Dialog, ErrorNotice } from '../../components/ui';
import type { TeamChange } from '../../data/team/queries';

function wording(change: TeamChange, self: boolean) {
  const whose = self ? 'Your' : 'Their';
  switch (change.kind) {
    case 'role':
      return {
        title: `Change the role of ${change.user.email}?`,
        text: `From ${change.user.role} to ${change.role}. ${whose} sessions end now: ${self ? 'you sign' : 'they sign'} in again with the new role.`,
        action: 'Change role',
        danger: false,
      };
    case 'remove':
      return {
        title: `Remove ${change.user.email}?`,
        text: 'They can no longer sign in, and their sessions end now. An invite can bring them back.',
        action: 'Remove',
        danger: true,
      };
    case 'reset':
      return {
        title: `Reset two-factor sign-in of ${change.user.email}?`,
        text: 'Their authenticator app and recovery codes stop working and their sessions end now. They sign in with their password and set up two-factor sign-in again.',
        action: 'Reset two-factor',
        danger: true,
      };
  }
}

/** Asks before a change that ends a teammate's sessions; the change runs only on confirmation. */
export function TeamChangeDialog({
  change,
  selfId,
  apply,
  onClose,
}: {
  change: TeamChange | null;
  selfId: string;
  apply: UseMutationResult<unknown, Error, TeamChange>;
  onClose: () => void;
}) {
  if (!change) return null;
  const words = wording(change, change.user.id === selfId);
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={words.title}
      description={words.text}
    >
      <ErrorNotice error={apply.error} />
      <div className="dialog-actions">
        <button type="button" className="button secondary" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className={`button ${words.danger ? 'danger' : 'primary'}`}
          disabled={apply.isPending}
          onClick={() => apply.mutate(change)}
        >
          {words.action}
        </button>
      </div>
    </Dialog>
  );
}
