import type { ErrorCode } from './generated.js';

/** The flat error envelope every failure answers (docs: /docs#errors). */
export interface ApiErrorBody {
  code: ErrorCode;
  message: string;
  recoverable: boolean;
  hint: string;
  doc_url: string;
  requestId: string;
  details: Record<string, unknown>;
}

const isEnvelope = (body: unknown): body is ApiErrorBody =>
  typeof body === 'object' &&
  body !== null &&
  typeof (body as { code?: unknown }).code === 'string' &&
  typeof (body as { message?: unknown }).message === 'string';

/** A non-2xx answer of the API, with its `code` typed as the union of every code the API has. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ErrorCode;
  readonly recoverable: boolean;
  readonly hint: string;
  readonly docUrl: string;
  readonly requestId: string;
  readonly details: Record<string, unknown>;

  constructor(
    readonly status: number,
    body: ApiErrorBody,
    readonly headers: Headers,
  ) {
    super(`${body.code}: ${body.message}`);
    this.code = body.code;
    this.recoverable = body.recoverable;
    this.hint = body.hint;
    this.docUrl = body.doc_url;
    this.requestId = body.requestId;
    this.details = body.details ?? {};
  }

  /** Seconds from `Retry-After`, when the answer carried one. */
  get retryAfterSeconds(): number | null {
    const value = this.headers.get('retry-after');
    return value === null ? null : Number(value);
  }

  /**
   * The error of a failed response. A body that is not the API's envelope (a proxy's page, say)
   * becomes SERVICE_UNAVAILABLE (5xx) or BAD_REQUEST, quoting what came back.
   */
  static from(response: Response, body: unknown): ApiError {
    if (isEnvelope(body)) return new ApiError(response.status, body, response.headers);
    const text = typeof body === 'string' ? body : JSON.stringify(body ?? null);
    return new ApiError(
      response.status,
      {
        code: response.status >= 500 ? 'SERVICE_UNAVAILABLE' : 'BAD_REQUEST',
        message: `HTTP ${response.status} without the API's error envelope: ${text.slice(0, 200)}`,
        recoverable: response.status >= 500,
        hint: 'The answer did not come from the API (a proxy or load balancer?).',
        doc_url: '',
        requestId: response.headers.get('x-request-id') ?? '',
        details: {},
      },
      response.headers,
    );
  }
}
