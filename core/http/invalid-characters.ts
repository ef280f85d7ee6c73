/*
 * Characters no field of the contract may hold. JSON can carry them as escapes ("\u0000", "\ud800"), and past this
 * boundary they break things far from the request: PostgreSQL refuses NUL in text, a lone surrogate turns into
 * U+FFFD (or an exception) wherever the string is encoded, and control characters end up in CSV exports, mail
 * headers and PDFs. So they are refused where input enters (core/contract/router.ts) with 422 INVALID_CHARACTERS and
 * a pointer to each field, keys included. Tab, line feed and carriage return stay allowed: multi-line texts use them.
 */
import { AppError, type FieldError } from './errors.ts';

// Without the `u` flag a regular expression sees UTF-16 code units, so an unpaired surrogate half matches.
const INVALID =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** At most this many fields are listed in one 422; the rest of a hostile body does not need naming. */
const MAX_REPORTED = 20;

/** True when the text holds NUL, another C0 control other than tab, LF and CR, or an unpaired surrogate. */
export function hasInvalidCharacters(text: string): boolean {
  return INVALID.test(text);
}

function escapeSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** JSON pointers of every string (object keys too) in a parsed JSON value that holds invalid characters, in order. */
export function invalidCharacterPointers(value: unknown): string[] {
  const found: string[] = [];
  // An explicit stack (a body of 1 MB may nest deeper than the call stack goes), children pushed last to first.
  const stack: { value: unknown; pointer: string; key?: string }[] = [{ value, pointer: '' }];
  while (stack.length > 0 && found.length < MAX_REPORTED) {
    const { value: current, pointer, key } = stack.pop()!;
    if (
      (key !== undefined && hasInvalidCharacters(key)) ||
      (typeof current === 'string' && hasInvalidCharacters(current))
    ) {
      found.push(pointer || '/');
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i -= 1) stack.push({ value: current[i], pointer: `${pointer}/${i}` });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [childKey, child] = entries[i]!;
        stack.push({ value: child, pointer: `${pointer}/${escapeSegment(childKey)}`, key: childKey });
      }
    }
  }
  return found;
}

/**
 * Throws 422 INVALID_CHARACTERS with one error per offending field (its pointer in `source.pointer`). With `only`,
 * just those top-level members are checked (declared parameters: an undeclared one is ignored, never refused).
 */
export function refuseInvalidCharacters(value: unknown, only?: readonly string[]): void {
  const checked =
    only && value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).filter(([name]) => only.includes(name)))
      : value;
  const pointers = invalidCharacterPointers(checked);
  if (pointers.length === 0) return;
  throw AppError.invalid(pointers.map((pointer): FieldError => ({ code: 'INVALID_CHARACTERS', pointer })));
}
