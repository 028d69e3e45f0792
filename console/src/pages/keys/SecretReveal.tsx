import { CopyButton, Dialog } from '../../components/ui';

const KEY_ADVICE =
  'This is the only time it is shown. Store it in your secret manager; if it is lost, rotate the key.';

/** A secret, shown once: it is not stored in clear and cannot be shown again (API keys, webhook secrets). */
export function SecretReveal({
  secret,
  onClose,
  description = KEY_ADVICE,
}: {
  secret: { name: string; key: string } | null;
  onClose: () => void;
  description?: string;
}) {
  return (
    <Dialog
      open={secret !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Copy your secret now"
      description={description}
    >
      {secret ? (
        <div className="secret-box">
          <div className="muted small">{secret.name}</div>
          <code className="secret" data-testid="secret">
            {secret.key}
          </code>
          <div className="dialog-actions">
            <CopyButton text={secret.key} label="Copy secret" />
            <button type="button" className="button primary" onClick={onClose}>
              I have stored it
            </button>
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}
