/**
 * The one place where the API's validation issues become sentences for a seller. Every console
 * form shows a field's problem with these words, once, beside the field; the same sentences
 * serve the checks a form makes before sending (a name too long, an empty quantity).
 */

/** One entry of `details.issues[]` of a VALIDATION_FAILED answer. */
export interface Issue {
  field: string;
  in?: string;
  message: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

/** The part of a failed console call this module reads (ConsoleError's `body`). */
interface Refusal {
  body: { code: string; message: string; details?: { issues?: Issue[] } };
}

// Read by shape rather than by class, so this module stands alone (its test runs it in Node).
const isRefusal = (error: unknown): error is Refusal =>
  error instanceof Error && typeof (error as Partial<Refusal>).body?.code === 'string';

/** How a form names one of its fields in sentences: its label, and the shape a pattern expects. */
export interface FieldSpec {
  label: string;
  /** What the value looks like, for a pattern refusal ("two capital letters, such as DE"). */
  shape?: string;
}

interface Context {
  /** The field's label with a capital first letter, to start a sentence with. */
  Label: string;
  label: string;
  shape?: string;
  params: Record<string, unknown>;
  /** The API's own words for the issue, a short phrase ("must be after since"). */
  message: string;
  /** The API's headline, a whole sentence, for refusals that read only as a whole. */
  headline: string;
}

type Sentence = (context: Context) => string;

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const stop = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);
const numberParam = (params: Record<string, unknown>, name: string) =>
  typeof params[name] === 'number' ? (params[name] as number) : null;
const entryOf = (params: Record<string, unknown>) =>
  typeof params.entry === 'string' && params.entry !== '' ? params.entry : 'This entry';
const plural = (count: number, one: string, other: string) => `${count} ${count === 1 ? one : other}`;

/** The API's phrase after the field's label: for rules whose phrase already says what to fix. */
const inServiceWords: Sentence = ({ Label, message }) => stop(`${Label} ${message}`);

const TYPE_WORDS: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'text',
  boolean: 'yes or no',
  array: 'a list',
  object: 'a group of fields',
};

const FORMAT_SENTENCES: Record<string, Sentence> = {
  uri: ({ Label }) => `${Label} must be a full web address, starting with https://.`,
  email: ({ Label }) => `${Label} must be an e-mail address, such as name@example.com.`,
  'date-time': ({ Label }) => `${Label} must be a date and a time.`,
  date: ({ Label }) => `${Label} must be a date.`,
  uuid: ({ Label }) => `${Label} is not an id this console gave out.`,
};

/**
 * Why the API refuses an IP allowlist entry (its `keyword`, the same word as the allowlist
 * check's reason), each with the entry in `params.entry`.
 */
export const ALLOWLIST_SENTENCES: Record<string, Sentence> = {
  invalid_literal: ({ params }) =>
    `${entryOf(params)} is not an IP address or a CIDR range, such as 203.0.113.10 or 198.51.100.0/24.`,
  prefix_zero: ({ params }) =>
    `${entryOf(params)} would let every address in; list your servers' addresses or a narrower range.`,
  prefix_out_of_range: ({ params }) =>
    `${entryOf(params)} has a range size past the end of the address: at most /32 for IPv4 and /128 for IPv6.`,
  host_bits_set: ({ params }) =>
    `${entryOf(params)} does not start its range: write the range's first address, such as 198.51.100.0/24 rather than 198.51.100.7/24.`,
  reserved_range: ({ params }) =>
    `${entryOf(params)} is in ${typeof params.range === 'string' ? `the ${params.range}` : 'a reserved'} range, which never calls the API from the internet; list your servers' public addresses.`,
  too_many: () => 'A key allows at most 50 entries; join neighbouring addresses into ranges.',
  duplicate: ({ params }) => `${entryOf(params)} is listed twice; remove one of them.`,
};

/**
 * Why the API refuses a webhook URL (`params.reason`). None of them asks the seller to change
 * how the service runs: the seller gives a public https:// address.
 */
export const WEBHOOK_URL_SENTENCES: Record<string, Sentence> = {
  not_absolute: () => 'Give the whole address of your receiver, starting with https://.',
  https_required: () => 'Use an https:// address: events are only sent over an encrypted connection.',
  credentials: () =>
    'Take the user name and password out of the address; check each event by its signature instead.',
  internal_host: () => 'This host cannot be reached from the internet; give your receiver’s public address.',
  this_machine: () =>
    'This address points at the service’s own machine; give a public https:// address (a tunnel to your computer works for testing).',
  reserved_address: () =>
    'This address is in a private or reserved range that events are never sent to; give a public address.',
};

/**
 * A sentence for every validation keyword the API can put in an issue: the schema's rules and
 * the rules its services check themselves.
 */
export const KEYWORD_SENTENCES: Record<string, Sentence> = {
  required: ({ Label }) => `${Label} is required.`,
  maxLength: ({ Label, params }) =>
    `${Label} can have at most ${plural(numberParam(params, 'limit') ?? 0, 'character', 'characters')}.`,
  minLength: ({ Label, params }) => {
    const limit = numberParam(params, 'limit') ?? 1;
    const max = numberParam(params, 'max');
    if (max !== null) return `${Label} needs ${limit} to ${max} characters.`;
    return limit <= 1 ? `${Label} cannot be empty.` : `${Label} needs at least ${limit} characters.`;
  },
  pattern: ({ Label, shape }) =>
    shape ? `${Label} must be ${shape}.` : `${Label} is not written the way it must be.`,
  format: (context) =>
    typeof context.params.reason === 'string' && WEBHOOK_URL_SENTENCES[context.params.reason]
      ? WEBHOOK_URL_SENTENCES[context.params.reason]!(context)
      : (FORMAT_SENTENCES[String(context.params.format)] ?? inServiceWords)(context),
  minimum: (context) => {
    const limit = numberParam(context.params, 'limit');
    return limit === null ? inServiceWords(context) : `${context.Label} must be at least ${limit}.`;
  },
  maximum: (context) => {
    const limit = numberParam(context.params, 'limit');
    return limit === null ? inServiceWords(context) : `${context.Label} can be at most ${limit}.`;
  },
  exclusiveMinimum: ({ Label, params }) => `${Label} must be more than ${numberParam(params, 'limit') ?? 0}.`,
  exclusiveMaximum: ({ Label, params }) => `${Label} must be less than ${numberParam(params, 'limit') ?? 0}.`,
  multipleOf: ({ Label, params }) =>
    `${Label} must be a multiple of ${numberParam(params, 'multipleOf') ?? 1}.`,
  type: (context) => {
    const word = TYPE_WORDS[String(context.params.type)];
    return word ? `${context.Label} must be ${word}.` : inServiceWords(context);
  },
  enum: ({ Label, params }) =>
    Array.isArray(params.allowedValues) && params.allowedValues.length <= 8
      ? `${Label} must be one of ${params.allowedValues.join(', ')}.`
      : `${Label} is not one of the values offered.`,
  const: inServiceWords,
  additionalProperties: ({ Label }) => `${Label} is not something this form can change.`,
  minItems: ({ label, params }) => {
    const limit = numberParam(params, 'limit') ?? 1;
    return `Give at least ${limit === 1 ? 'one entry' : `${limit} entries`} under ${label}.`;
  },
  maxItems: ({ Label, params }) =>
    `${Label} takes at most ${plural(numberParam(params, 'limit') ?? 0, 'entry', 'entries')}.`,
  uniqueItems: ({ Label }) => `${Label} lists the same entry twice; remove one.`,
  oneOf: ({ headline }) => headline,
  anyOf: ({ Label }) => `${Label} is not one of the accepted forms.`,
  maxDepth: ({ Label }) => `${Label} is nested too deeply.`,
  nul: ({ Label }) => `${Label} contains a character that cannot be stored; retype it.`,
  utf8: ({ Label }) => `${Label} contains a character that cannot be read; retype it.`,
  noBody: ({ headline }) => headline,
  // Rules the API's services check: their own phrase, or their headline sentence.
  unique: inServiceWords,
  range: inServiceWords,
  subset: inServiceWords,
  key: inServiceWords,
  line: inServiceWords,
  availability: inServiceWords,
  attestation: inServiceWords,
  state: ({ headline }) => headline,
  self: ({ headline }) => headline,
  owner: () => 'A company keeps at least one owner: make someone else an owner first.',
  password: () => 'The current password is not right.',
  strength: () =>
    'Choose a password that is harder to guess: not a common one, and not your e-mail address or company name.',
  totp: () =>
    'This code does not match: enter the newest code from your authenticator app, and check the time on your device.',
  recoveryCode: () => 'This recovery code is not right, or it was used already.',
  'iso3166-1': ({ params }) => `${entryOf(params)} is not a two-letter country code, such as DE or US.`,
  iso4217: ({ params }) => `${entryOf(params)} is not a three-letter currency code, such as EUR or USD.`,
  ...ALLOWLIST_SENTENCES,
};

/** "expiresAt" → "expires at": a label for a field the form did not name. */
const labelFromName = (field: string) =>
  field
    .replace(/\[\d+\]$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();

/** The sentence for one issue, naming the field as the form labels it. */
export function sentenceOf(issue: Issue, spec?: FieldSpec, headline = ''): string {
  const label = spec?.label ?? labelFromName(issue.field);
  const context: Context = {
    Label: capital(label),
    label,
    shape: spec?.shape,
    params: issue.params ?? {},
    message: issue.message,
    headline: headline || stop(`${capital(label)} ${issue.message}`),
  };
  const sentence = issue.keyword ? KEYWORD_SENTENCES[issue.keyword] : undefined;
  return (sentence ?? inServiceWords)(context);
}

/** The sentence of a check the form makes before sending, in the same words as the API's. */
export const ruleSentence = (keyword: string, spec: FieldSpec, params: Record<string, unknown> = {}) =>
  sentenceOf({ field: '', message: '', keyword, params }, spec);

/** The issues of a failed call when it is a validation refusal; none for any other failure. */
export function issuesOf(error: unknown): Issue[] {
  if (!isRefusal(error) || error.body.code !== 'VALIDATION_FAILED') return [];
  return error.body.details?.issues ?? [];
}

/** Does the issue name `field` (`name`), an entry of it (`allowedIps[2]`) or a part of it (`context.note`)? */
const names = (issue: Issue, field: string) =>
  issue.field === field || issue.field.startsWith(`${field}[`) || issue.field.startsWith(`${field}.`);

/**
 * What a failed call says about one form: the sentences for each of its fields (the keys of
 * `fields`; a form field sent under another name lists each API name, `allowlist: ['allowedIps',
 * 'allowed_ips']`), and those about anything else, each said once.
 */
export function formErrorsOf<Field extends string>(
  error: unknown,
  fields: Record<Field, FieldSpec & { sentAs?: readonly string[] }>,
): { of: (field: Field) => string[]; elsewhere: string[]; invalid: boolean } {
  const issues = issuesOf(error);
  const headline = isRefusal(error) ? error.body.message : '';
  const placed = new Map<Field, string[]>();
  const elsewhere: string[] = [];
  for (const issue of issues) {
    const field = (Object.keys(fields) as Field[]).find((name) =>
      [name, ...(fields[name].sentAs ?? [])].some((sent) => names(issue, sent)),
    );
    const sentence = sentenceOf(issue, field ? fields[field] : undefined, headline);
    const list = field ? (placed.get(field) ?? []) : elsewhere;
    if (!list.includes(sentence)) list.push(sentence);
    if (field) placed.set(field, list);
  }
  return { of: (field) => placed.get(field) ?? [], elsewhere, invalid: issues.length > 0 };
}

/** The API's length rule for a new password, checked before sending in the same words. */
export const PASSWORD_LENGTH = { limit: 12, max: 200 };

/** A field's messages: the form's own check when it failed (nothing was sent), else the API's. */
export const messagesOf = (checked: string | undefined, refused: readonly string[]): string[] =>
  checked ? [checked] : [...refused];
