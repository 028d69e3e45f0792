import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  /** The decoded text body. */
  text: string;
}

/** Quoted-printable as nodemailer writes long or non-ASCII text: soft breaks, then `=XX` bytes. */
function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function parse(raw: string, from: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const body = raw.slice(split + 4);
  const text = /quoted-printable/i.test(header('Content-Transfer-Encoding'))
    ? decodeQuotedPrintable(body)
    : /base64/i.test(header('Content-Transfer-Encoding'))
      ? Buffer.from(body, 'base64').toString('utf8')
      : body;
  return { from, to, subject: header('Subject'), text: text.replace(/\r\n/g, '\n') };
}

/**
 * A local SMTP server for tests: it accepts every message (recipients matching `refuse` are
 * rejected with 550) and keeps each one, and counts connections, so a test can tell that no
 * attempt was made.
 */
export async function startSmtpServer(options: { refuse?: RegExp } = {}) {
  const messages: ReceivedMail[] = [];
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onRcptTo(address, _session, callback) {
      if (options.refuse?.test(address.address)) {
        const refused = Object.assign(new Error('mailbox unavailable'), { responseCode: 550 });
        return callback(refused);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const envelope = session.envelope;
        messages.push(
          parse(
            Buffer.concat(chunks).toString('utf8'),
            envelope.mailFrom ? envelope.mailFrom.address : '',
            envelope.rcptTo.map((r) => r.address),
          ),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
