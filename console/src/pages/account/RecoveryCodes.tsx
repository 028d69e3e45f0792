import { CopyButton } from '../../components/ui';

/**
 * Recovery codes, shown this once: the server keeps only their hashes. Each signs in once in
 * place of an authenticator code.
 */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="secret-box" data-testid="recovery-codes">
      <h3>Your recovery codes</h3>
      <p>
        If your phone is lost, each of these signs you in once in place of a code from the app. Keep them
        somewhere safe, apart from the phone: <strong>they are shown only now</strong>.
      </p>
      <ol className="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="dialog-actions left">
        <CopyButton text={codes.join('\n')} label="Copy the codes" />
        <button type="button" className="button primary" onClick={onDone}>
          I have saved them
        </button>
      </div>
    </div>
  );
}
