import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { fail } from '../../http/errors.js';

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 200;
/** zxcvbn's scale runs 0 to 4; 3 is "safely unguessable" against a slow hash like ours. */
const MIN_STRENGTH_SCORE = 3;
/**
 * Bounds on the estimator's work, which runs on the event loop: it reads the first 64 characters
 * (a password strong in those is strong) and tries at most 8 look-alike substitutions ("p4$$w0rd").
 * Long repeated look-alikes cost hundreds of milliseconds with the library's defaults.
 */
const ESTIMATED_LENGTH = 64;
const MAX_LOOKALIKE_SUBSTITUTIONS = 8;

export const WEAK_PASSWORD_SENTENCE =
  'Choose a password that is harder to guess: not a common one, and not your e-mail address or company name.';

/** Who the password is for: the words an attacker would try first for this account. */
export interface PasswordContext {
  /** The body field that carried the password, named in `issues[]`. */
  field: 'password' | 'newPassword';
  email: string;
  companyName: string;
}

const refusal = (
  field: string,
  message: string,
  keyword: string,
  sentence: string,
  params?: Record<string, number>,
) =>
  fail('VALIDATION_FAILED', sentence, {
    issues: [{ field, in: 'body', message, keyword, ...(params ? { params } : {}) }],
  });

/** The length rule alone: cheap, so it runs before anything is looked up. */
export function checkPasswordLength(password: string, field: PasswordContext['field']): void {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH || length > MAX_PASSWORD_LENGTH) {
    throw refusal(
      field,
      `must have ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`,
      'minLength',
      `A password has ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters.`,
      { limit: MIN_PASSWORD_LENGTH, max: MAX_PASSWORD_LENGTH },
    );
  }
}

/**
 * The estimator with its common-password and word lists (about 11 MB of heap, some 150 ms to
 * build), made on the first password set rather than at start: most processes never set one.
 */
let estimator: Promise<ZxcvbnFactory> | undefined;
const loadEstimator = async (): Promise<ZxcvbnFactory> => {
  const [{ ZxcvbnFactory }, common] = await Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
  ]);
  return new ZxcvbnFactory({
    dictionary: common.dictionary,
    graphs: common.adjacencyGraphs,
    maxLength: ESTIMATED_LENGTH,
    l33tMaxSubstitutions: MAX_LOOKALIKE_SUBSTITUTIONS,
  });
};

/** Letters and digits only, lower-cased: "Acme Games, Ltd." and "acmegamesltd" are one word. */
const squashed = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/** The account's own words, whole and in parts, for the estimator to try as a dictionary. */
function contextWords({ email, companyName }: PasswordContext): string[] {
  const [local = '', domain = ''] = email.toLowerCase().split('@');
  const parts = [email, local, ...domain.split('.'), companyName, squashed(companyName)];
  parts.push(...companyName.toLowerCase().split(/[^\p{L}\p{N}]+/u));
  return [...new Set(parts.filter((part) => part.length >= 3)), 'sdapi', 'seller', 'console'];
}

/** Does the password hold the whole e-mail address or company name, spaces and case aside? */
function holdsContext(password: string, { email, companyName }: PasswordContext): boolean {
  const flat = squashed(password);
  return [squashed(email), squashed(companyName)].some((word) => word.length >= 4 && flat.includes(word));
}

/**
 * The rule for every new password: 12 to 200 characters, and not guessable: not a common
 * password nor a variation of one, not built from the user's e-mail address or company name.
 */
export async function checkNewPassword(password: string, context: PasswordContext): Promise<void> {
  checkPasswordLength(password, context.field);
  estimator ??= loadEstimator().catch((err: unknown) => {
    estimator = undefined;
    throw err;
  });
  const { score } = (await estimator).check(password, contextWords(context));
  if (score < MIN_STRENGTH_SCORE || holdsContext(password, context)) {
    throw refusal(context.field, 'is too easy to guess', 'strength', WEAK_PASSWORD_SENTENCE);
  }
}
