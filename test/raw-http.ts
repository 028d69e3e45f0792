import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/** Parses the first HTTP/1.1 answer in `raw` (Content-Length framed, as every answer here is). */
export function parseAnswer(raw: Buffer): RawAnswer | null {
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return null;
  // An interim answer (100 Continue) precedes the real one.
  if (/^HTTP\/1\.[01] 1\d\d/.test(text)) return parseAnswer(raw.subarray(end + 4));
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? NaN);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const bodyBytes = raw.subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1'));
  if (bodyBytes.length < length) return null;
  const body = bodyBytes.subarray(0, length).toString('utf8');
  let json: unknown;
  try {
    json = body ? JSON.parse(body) : undefined;
  } catch {
    json = undefined;
  }
  return { status, headers, body, json };
}

/**
 * Sends bytes as they are over a fresh TCP connection and reads the first answer. Resolves null
 * when the server closes the connection without answering.
 */
export function rawRequest(
  port: number,
  bytes: Buffer | string,
  timeoutMs = 5000,
): Promise<RawAnswer | null> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (answer: RawAnswer | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => finish(parseAnswer(Buffer.concat(chunks))), timeoutMs);
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      const answer = parseAnswer(Buffer.concat(chunks));
      if (answer) finish(answer);
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE') finish(parseAnswer(Buffer.concat(chunks)));
      else if (!settled) reject(err);
    });
    socket.on('close', () => finish(parseAnswer(Buffer.concat(chunks))));
    socket.write(bytes);
  });
}
