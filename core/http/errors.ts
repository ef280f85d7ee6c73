/** One entry of the error catalogue: HTTP status and the human message in each language. */
export interface ErrorDefinition {
  status: number;
  ja: string;
  en: string;
}

/** Every error code the API can return; the status of a code is decided here and nowhere else. */
export const ERROR_CATALOGUE = {
  MALFORMED_REQUEST: { status: 400, ja: 'リクエストの形式が正しくありません。', en: 'The request is malformed.' },
  VALIDATION_FAILED: { status: 422, ja: '入力内容に誤りがあります。', en: 'The input is invalid.' },
  UNAUTHENTICATED: {
    status: 401,
    ja: 'トークンが見つかりません。再度ログインしてください。',
    en: 'Token not found. Please log in again.',
  },
  TOKEN_EXPIRED: { status: 401, ja: 'アクセストークンの有効期限が切れています。', en: 'The access token has expired.' },
  SESSION_TIMEOUT: {
    status: 401,
    ja: '一定時間操作がなかったため、ログアウトしました。再度ログインしてください。',
    en: 'You were logged out after a period of inactivity. Please log in again.',
  },
  SESSION_REVOKED: {
    status: 401,
    ja: 'ログアウトされています。再度ログインしてください。',
    en: 'You have been logged out. Please log in again.',
  },
  REFRESH_TOKEN_INVALID: {
    status: 401,
    ja: 'セッションを更新できません。再度ログインしてください。',
    en: 'The session cannot be refreshed. Please log in again.',
  },
  REFRESH_TOKEN_REUSED: {
    status: 401,
    ja: '使用済みのトークンが再利用されたため、セッションを無効にしました。再度ログインしてください。',
    en: 'A used token was presented again, so the session was ended. Please log in again.',
  },
  INVALID_CREDENTIALS: {
    status: 401,
    ja: 'ログインに失敗しました。ユーザーIDまたはパスワードが正しくありません。',
    en: 'Login failed. The user ID or password is incorrect.',
  },
  ACCOUNT_LOCKED: {
    status: 429,
    ja: 'ログインに続けて失敗したため、アカウントをロックしました。約15分後に再度お試しください。',
    en: 'The account is locked after repeated failures. Please try again in about 15 minutes.',
  },
  INITIAL_PASSWORD_CHANGE_REQUIRED: {
    status: 403,
    ja: '初回ログインのため、パスワードを変更してください。',
    en: 'This is your first login. Please change your password.',
  },
  PASSWORD_EXPIRED: {
    status: 403,
    ja: 'パスワードの有効期限が切れています。パスワードを変更してください。',
    en: 'Your password has expired. Please change it.',
  },
  TEMPORARY_PASSWORD_EXPIRED: {
    status: 401,
    ja: '仮パスワードが無効か、有効期限が切れています。管理者に再発行を依頼してください。',
    en: 'The temporary password is invalid or has expired. Ask your administrator to issue a new one.',
  },
  CURRENT_PASSWORD_WRONG: {
    status: 422,
    ja: '現在のパスワードが正しくありません。',
    en: 'The current password is incorrect.',
  },
  PASSWORD_TOO_SHORT: {
    status: 422,
    ja: 'パスワードは{min}文字以上で入力してください。',
    en: 'The password must be at least {min} characters.',
  },
  PASSWORD_NOT_HALF_WIDTH: {
    status: 422,
    ja: 'パスワードは半角英数記号で入力してください。',
    en: 'The password must use half-width characters only.',
  },
  PASSWORD_REQUIRES_LOWERCASE: {
    status: 422,
    ja: 'パスワードには英小文字を含めてください。',
    en: 'The password must contain a lowercase letter.',
  },
  PASSWORD_REQUIRES_DIGIT: {
    status: 422,
    ja: 'パスワードには数字を含めてください。',
    en: 'The password must contain a digit.',
  },
  PASSWORD_CONTAINS_USER_ID: {
    status: 422,
    ja: 'パスワードにユーザーIDを含めることはできません。',
    en: 'The password must not contain the user ID.',
  },
  PASSWORD_SAME_AS_CURRENT: {
    status: 422,
    ja: '現在のパスワードと異なるパスワードを入力してください。',
    en: 'The new password must differ from the current one.',
  },
  PASSWORD_REUSED: {
    status: 422,
    ja: '過去{count}回以内に使用したパスワードは使用できません。',
    en: 'The password must not be one of your last {count} passwords.',
  },
  PASSWORD_CONFIRMATION_MISMATCH: {
    status: 422,
    ja: '確認用パスワードが一致しません。',
    en: 'The password confirmation does not match.',
  },
  LOGIN_ID_TAKEN: {
    status: 422,
    ja: 'このユーザーIDは既に登録されています。',
    en: 'This user ID is already registered.',
  },
  CORPORATE_NUMBER_INVALID: { status: 422, ja: '法人番号が正しくありません。', en: 'The corporate number is invalid.' },
  CORPORATE_NUMBER_TAKEN: {
    status: 422,
    ja: 'この法人番号は既に登録されています。',
    en: 'This corporate number is already registered.',
  },
  TERMS_NOT_AGREED: { status: 422, ja: '利用規約への同意が必要です。', en: 'You must agree to the terms of use.' },
  PASSWORD_RESET_LINK_INVALID: {
    status: 401,
    ja: 'リンクが無効か、有効期限が切れています。',
    en: 'The link is invalid or has expired.',
  },
  FORBIDDEN: { status: 403, ja: 'アクセスする権限がありません。', en: "You don't have permission to access." },
  IP_RESTRICTED: {
    status: 403,
    ja: 'ご利用のIPアドレスからはアクセスできません。',
    en: 'You cannot access from your IP address.',
  },
  PLAN_FEATURE_UNAVAILABLE: {
    status: 403,
    ja: 'ご契約のプランではこの機能をご利用いただけません。',
    en: 'The feature is not available for your plan.',
  },
  NOT_FOUND: { status: 404, ja: '対象が見つかりません。', en: 'The resource was not found.' },
  ROUTE_NOT_FOUND: {
    status: 404,
    ja: 'お探しのページは見つかりませんでした。',
    en: 'The page you were looking for was not found.',
  },
  METHOD_NOT_ALLOWED: { status: 405, ja: 'この操作は許可されていません。', en: 'This method is not allowed here.' },
  UPDATED_BY_ANOTHER_USER: {
    status: 409,
    ja: '他のユーザーが更新しました。再読み込みしてください。',
    en: 'Updated by another user. Please reload.',
  },
  REQUEST_TOO_LARGE: { status: 413, ja: 'リクエストが大きすぎます。', en: 'The request is too large.' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    ja: 'この形式には対応していません。',
    en: 'This content type is not supported.',
  },
  IP_RESTRICTION_INVALID: {
    status: 422,
    ja: 'IPv4アドレスまたはCIDR形式で入力してください。',
    en: 'Enter an IPv4 address or a CIDR range.',
  },
  IP_RESTRICTION_EXCLUDES_OWN_IP: {
    status: 422,
    ja: '操作中のIPアドレス({ip})を含めてください。自身のIPアドレスは削除できません。',
    en: 'Include the IP address you are using ({ip}); your own address cannot be removed.',
  },
  IP_RESTRICTION_LIMIT: {
    status: 422,
    ja: '登録できるIPアドレスは{max}件までです。',
    en: 'You can register at most {max} IP addresses.',
  },
  INTERNAL_ERROR: {
    status: 500,
    ja: '処理に失敗しました。再試行しても解決しない場合は、カスタマーポータルサイトをご参照ください。',
    en: 'The request failed. If the error persists after retrying, refer to the customer portal site.',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    ja: '現在サービスを利用できません。',
    en: 'The service is unavailable right now.',
  },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export type Locale = 'ja' | 'en';

/** One field problem of a 422: its own code and a JSON pointer into the request body. */
export interface FieldError {
  code: ErrorCode;
  pointer: string;
  params?: Record<string, string | number>;
  /** A more precise explanation than the catalogue message (schema violations). */
  detail?: string;
}

/** The single error type code throws; the mapper turns it into a JSON:API error response. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly detail?: string;
  readonly params: Record<string, string | number>;
  readonly fields: FieldError[];
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    options: {
      detail?: string;
      pointer?: string;
      params?: Record<string, string | number>;
      cause?: unknown;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(code, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
    this.detail = options.detail;
    this.params = options.params ?? {};
    this.fields = options.pointer ? [{ code, pointer: options.pointer, params: this.params }] : [];
    this.headers = options.headers ?? {};
  }

  /** A 422 listing every invalid field at once. */
  static invalid(fields: FieldError[]): AppError {
    const error = new AppError(fields.length === 1 ? fields[0]!.code : 'VALIDATION_FAILED', {
      params: fields.length === 1 ? fields[0]!.params : undefined,
    });
    error.fields.push(...fields);
    return error;
  }
}

/** The catalogue message for a code in a language, with {placeholders} filled. */
export function errorMessage(code: ErrorCode, locale: Locale, params: Record<string, string | number> = {}): string {
  const template: string = ERROR_CATALOGUE[code][locale];
  return template.replace(/\{(\w+)\}/g, (_, key: string) => String(params[key] ?? `{${key}}`));
}

/** A JSON:API error object as the contract defines it. */
export interface JsonApiError {
  status: string;
  code: ErrorCode;
  title: string;
  detail: string;
  traceId: string;
  source?: { pointer: string };
  meta?: { messages: Record<Locale, string> };
}

/** Renders an AppError as the body of the response: one entry per field, or one for the whole request. */
export function toJsonApiErrors(error: AppError, locale: Locale, traceId: string): { errors: JsonApiError[] } {
  const entry = (code: ErrorCode, params: Record<string, string | number>, pointer?: string, detail?: string) => {
    const messages = { ja: errorMessage(code, 'ja', params), en: errorMessage(code, 'en', params) };
    const body: JsonApiError = {
      status: String(ERROR_CATALOGUE[code].status),
      code,
      title: messages[locale],
      detail: detail ?? error.detail ?? messages[locale],
      traceId,
      ...(pointer ? { source: { pointer } } : {}),
      meta: { messages },
    };
    return body;
  };
  if (error.fields.length > 0) {
    return { errors: error.fields.map((field) => entry(field.code, field.params ?? {}, field.pointer, field.detail)) };
  }
  return { errors: [entry(error.code, error.params)] };
}
