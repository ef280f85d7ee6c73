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
  API_KEY_INVALID: {
    status: 401,
    ja: 'APIキーが正しくありません。',
    en: 'The API key is not valid.',
  },
  API_KEY_REVOKED: {
    status: 401,
    ja: 'このAPIキーは失効しています。',
    en: 'The API key has been revoked.',
  },
  API_KEY_EXPIRED: {
    status: 401,
    ja: 'このAPIキーは有効期限が切れています。',
    en: 'The API key has expired.',
  },
  API_KEY_SCOPE_MISSING: {
    status: 403,
    ja: 'このAPIキーには必要なスコープ（{scope}）がありません。',
    en: 'The API key lacks the scope this operation needs ({scope}).',
  },
  API_KEY_NOT_ALLOWED: {
    status: 403,
    ja: 'この操作はAPIキーでは行えません。',
    en: 'This operation cannot be performed with an API key.',
  },
  API_KEY_EXPIRY_INVALID: {
    status: 422,
    ja: '有効期限には未来の日時を指定してください。',
    en: 'The expiry must be in the future.',
  },
  API_KEY_ALREADY_REVOKED: {
    status: 409,
    ja: 'このAPIキーは失効しているため変更できません。',
    en: 'The API key has been revoked and cannot be changed.',
  },
  ACCOUNT_LOCKED: {
    status: 429,
    ja: 'ログインに続けて失敗したため、アカウントをロックしました。約15分後に再度お試しください。',
    en: 'The account is locked after repeated failures. Please try again in about 15 minutes.',
  },
  TOO_MANY_REQUESTS: {
    status: 429,
    ja: 'リクエストが多すぎます。しばらく待ってから再度お試しください。',
    en: 'Too many requests. Please wait a while and try again.',
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
  PASSWORD_REQUIRES_UPPERCASE: {
    status: 422,
    ja: 'パスワードには英大文字を含めてください。',
    en: 'The password must contain an uppercase letter.',
  },
  PASSWORD_REQUIRES_SYMBOL: {
    status: 422,
    ja: 'パスワードには記号を含めてください。',
    en: 'The password must contain a symbol.',
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
  FUNCTION_NOT_PERMITTED: {
    status: 403,
    ja: 'この機能を利用する権限がありません。',
    en: 'You do not have permission to use this function.',
  },
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
  REGISTERED_BY_ANOTHER_USER: {
    status: 409,
    ja: '他のユーザーが登録しました。',
    en: 'Registered by another user.',
  },
  PERMISSIONS_CHANGED: {
    status: 409,
    ja: '他のユーザーによって権限が更新されました。再読み込みしてください。',
    en: 'Permissions have been updated by another user. Please reload.',
  },
  REQUEST_TOO_LARGE: { status: 413, ja: 'リクエストが大きすぎます。', en: 'The request is too large.' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    ja: 'この形式には対応していません。',
    en: 'This content type is not supported.',
  },
  REQUEST_HEADER_TOO_LARGE: {
    status: 431,
    ja: 'リクエストのヘッダーまたはアドレスが長すぎます。',
    en: 'The request headers or URL are too long.',
  },
  REQUEST_TIMEOUT: {
    status: 408,
    ja: 'リクエストを時間内に受信できませんでした。再度お試しください。',
    en: 'The request was not received in time. Please try again.',
  },
  INVALID_CHARACTERS: {
    status: 422,
    ja: '使用できない文字（制御文字など）が含まれています。',
    en: 'The input contains characters that cannot be used (such as control characters).',
  },
  IP_RESTRICTION_INVALID: {
    status: 422,
    ja: 'IPv4アドレスまたはCIDR形式で入力してください。',
    en: 'Enter an IPv4 address or a CIDR range.',
  },
  IP_RESTRICTION_EXCLUDES_OWN_IP: {
    status: 422,
    ja: '操作中のIPアドレス（{ip}）を含めてください。自身のIPアドレスは削除できません。',
    en: 'Include the IP address you are using ({ip}); your own address cannot be removed.',
  },
  IP_RESTRICTION_LIMIT: {
    status: 422,
    ja: '登録できるIPアドレスは{max}件までです。',
    en: 'You can register at most {max} IP addresses.',
  },
  CORPORATE_INFO_NOT_FOUND: {
    status: 404,
    ja: '法人情報が見つかりません。',
    en: 'Corporate info not found.',
  },
  PLAN_CHANGE_UNCHANGED: {
    status: 422,
    ja: '現在と同じプランとオプションです。変更内容を選んでください。',
    en: 'That is the plan and options the organization already has. Choose a change.',
  },
  PLAN_CHANGE_REQUEST_CLOSED: {
    status: 409,
    ja: 'この変更申請はすでに処理されています。画面を再読み込みしてください。',
    en: 'This change request has already been handled. Please reload.',
  },
  PLAN_GROUP_LIMIT_EXCEEDED: {
    status: 422,
    ja: 'このプランで利用できるグループは{max}件までです（現在{count}件）。グループを減らしてから変更してください。',
    en: 'This plan allows at most {max} groups and the organization has {count}. Remove groups before changing.',
  },
  PASSWORD_POLICY_BELOW_BASELINE: {
    status: 422,
    ja: 'パスワードポリシーは、最低基準（半角8文字以上・英小文字と数字を含む・ユーザーIDを含まない）より緩くできません。',
    en: 'The password policy cannot be looser than the baseline (8 half-width characters with a lowercase letter and a digit, without the user ID).',
  },
  BATCH_CSV_EMPTY: {
    status: 422,
    ja: 'CSVファイルにデータがありません。',
    en: 'The CSV file has no data.',
  },
  BATCH_CSV_ENCODING_INVALID: {
    status: 422,
    ja: 'CSVファイルの文字コードはUTF-8またはShift_JISにしてください。',
    en: 'The CSV file must be encoded in UTF-8 or Shift_JIS.',
  },
  BATCH_CSV_MALFORMED: {
    status: 422,
    ja: 'CSVファイルの{line}行目の形式が正しくありません。',
    en: 'The CSV file is malformed at line {line}.',
  },
  BATCH_CSV_HEADER_INVALID: {
    status: 422,
    ja: 'CSVファイルの見出し行が正しくありません（{column}）。',
    en: 'The header row of the CSV file is invalid ({column}).',
  },
  BATCH_CSV_TOO_MANY_ROWS: {
    status: 422,
    ja: '一度に取り込めるのは{max}行までです。ファイルを分割してください。',
    en: 'At most {max} rows can be imported at once. Split the file.',
  },
  BATCH_ROWS_FAILED: {
    status: 422,
    ja: '一括編集で失敗した行があります。失敗した行と理由を確認してください。',
    en: 'Batch editing finished with failed rows. Check the failed rows and their reasons.',
  },
  BATCH_ROW_FIELD_COUNT: {
    status: 422,
    ja: 'この行の項目数（{actual}）が見出し行の項目数（{expected}）と一致しません。',
    en: 'This row has {actual} fields; the header has {expected}.',
  },
  BATCH_OPERATION_INVALID: {
    status: 422,
    ja: '操作はadd、update、deleteのいずれかを指定してください。',
    en: 'The operation must be add, update or delete.',
  },
  BATCH_DUPLICATE_IN_FILE: {
    status: 422,
    ja: '同じ値がファイルの{line}行目にもあります。',
    en: 'The same value also appears on line {line} of the file.',
  },
  BATCH_UNKNOWN_GROUP: {
    status: 422,
    ja: 'グループ「{value}」が見つかりません。',
    en: 'Group "{value}" was not found.',
  },
  BATCH_UNKNOWN_ROLE: {
    status: 422,
    ja: 'ロール「{value}」が見つかりません。',
    en: 'Role "{value}" was not found.',
  },
  BATCH_AMBIGUOUS_REFERENCE: {
    status: 422,
    ja: '「{value}」に一致するものが複数あります。システム連携用IDで指定してください。',
    en: '"{value}" matches more than one item. Use its ID for system link.',
  },
  BATCH_VALUE_INVALID: {
    status: 422,
    ja: '{column}の値が正しくありません。',
    en: 'The value of {column} is invalid.',
  },
  CSV_EXPORT_LIMIT_EXCEEDED: {
    status: 422,
    ja: 'CSV出力は{max}件までです（該当{total}件）。検索条件で絞り込んでください。',
    en: 'CSV export is limited to {max} items ({total} match). Narrow the search.',
  },
  MAIL_TEMPLATE_PLACEHOLDER_UNKNOWN: {
    status: 422,
    ja: '差し込み項目「{placeholder}」はこのメールでは使用できません。',
    en: 'The placeholder "{placeholder}" cannot be used in this mail.',
  },
  MAIL_TEMPLATE_PLACEHOLDER_REQUIRED: {
    status: 422,
    ja: '本文に差し込み項目「{placeholder}」を含めてください。',
    en: 'The body must contain the placeholder "{placeholder}".',
  },
  BILLING_CREDIT_EXCEEDS_INVOICE: {
    status: 422,
    ja: '返還額が請求書の金額を超えています。',
    en: 'The credit exceeds what the invoice charged.',
  },
  USAGE_RANGE_INVALID: {
    status: 422,
    ja: '期間は開始月から終了月まで、最大{max}か月で指定してください。',
    en: 'Choose a range from the start month to the end month, at most {max} months.',
  },
  LOGIN_ID_INVALID: {
    status: 422,
    ja: 'ユーザーIDは{min}文字以上{max}文字以内で入力してください。',
    en: 'The user ID must be {min} to {max} characters.',
  },
  EMAIL_INVALID: {
    status: 422,
    ja: 'メールアドレスの形式が正しくありません。',
    en: 'Enter a valid e-mail address.',
  },
  SUB_EMAIL_LIMIT: {
    status: 422,
    ja: 'サブメールアドレスは{max}件まで登録できます。',
    en: 'You can register at most {max} sub e-mail addresses.',
  },
  MOBILE_PHONE_INVALID: {
    status: 422,
    ja: '携帯電話番号はハイフンなしの数字10桁または11桁で入力してください。',
    en: 'Enter the mobile phone number as 10 or 11 digits without hyphens.',
  },
  SMS_MOBILE_PHONE_INVALID: {
    status: 422,
    ja: '携帯電話番号は060、070、080、090で始まる11桁の番号で入力してください。',
    en: 'Enter a mobile number of 11 digits starting 060, 070, 080 or 090.',
  },
  REFERENCE_NOT_FOUND: {
    status: 422,
    ja: '指定された項目が見つかりません。',
    en: 'The selected item was not found.',
  },
  SYSTEM_LINK_ID_TAKEN: {
    status: 422,
    ja: 'このシステム連携用IDは既に使用されています。',
    en: 'This ID for system link is already in use.',
  },
  IDEMPOTENCY_KEY_INVALID: {
    status: 422,
    ja: '冪等キーは1～255文字の半角英数字と記号で指定してください。',
    en: 'The Idempotency-Key must be 1 to 255 visible ASCII characters.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    ja: 'この冪等キーは内容の異なる要求で既に使われています。新しいキーを指定してください。',
    en: 'This Idempotency-Key was already used with a different request. Use a new key.',
  },
  IDEMPOTENCY_KEY_IN_PROGRESS: {
    status: 409,
    ja: '同じ冪等キーの要求を処理中です。しばらくしてから再試行してください。',
    en: 'A request with the same Idempotency-Key is still being processed. Retry shortly.',
  },
  USER_IS_SELF: {
    status: 422,
    ja: '自分自身を削除・無効化・ロックすることはできません。',
    en: 'You cannot delete, deactivate or lock yourself.',
  },
  OWNER_PROTECTED: {
    status: 422,
    ja: '組織のオーナーは削除・無効化・ロックできず、管理者権限を外すこともできません。',
    en: 'The organization owner cannot be deleted, deactivated or locked, and stays an administrator.',
  },
  USER_GROUP_REQUIRED: {
    status: 422,
    ja: 'ユーザーは少なくとも1つのグループに所属する必要があります。',
    en: 'A user must belong to at least one group.',
  },
  USER_LAST_GROUP: {
    status: 422,
    ja: '他のグループに所属していないため、このグループから外すことはできません。',
    en: 'The user must belong to another group before leaving this one.',
  },
  ACCOUNT_DEACTIVATED: {
    status: 403,
    ja: 'このアカウントは無効になっています。管理者にお問い合わせください。',
    en: 'This account has been deactivated. Contact your administrator.',
  },
  ACCOUNT_LOCKED_BY_ADMIN: {
    status: 403,
    ja: 'このアカウントはロックされています。管理者にお問い合わせください。',
    en: 'This account is locked. Contact your administrator.',
  },
  // Single sign-on (plugins/sso).
  SSO_REQUIRED: {
    status: 403,
    ja: 'この組織ではシングルサインオンでログインしてください。パスワードではログインできません。',
    en: 'Your organization signs in with single sign-on. Use single sign-on instead of a password.',
  },
  SSO_NOT_CONFIGURED: {
    status: 404,
    ja: 'この組織コードではシングルサインオンを利用できません。組織コードをご確認ください。',
    en: 'Single sign-on is not available for this organization code. Check the code.',
  },
  SSO_DISCOVERY_FAILED: {
    status: 422,
    ja: 'IDプロバイダーの設定情報（ディスカバリー）を取得できませんでした。発行元URLをご確認ください。',
    en: 'The identity provider’s discovery document could not be read. Check the issuer URL.',
  },
  SSO_JIT_GROUP_REQUIRED: {
    status: 422,
    ja: 'ユーザーの自動作成には所属グループの指定が必要です。',
    en: 'Choose the group automatically created users join.',
  },
  SSO_CLIENT_SECRET_REQUIRED: {
    status: 422,
    ja: 'クライアントシークレットを入力してください。',
    en: 'Enter the client secret.',
  },
  SSO_PROVIDER_UNAVAILABLE: {
    status: 502,
    ja: 'IDプロバイダーに接続できませんでした。しばらくしてから再度お試しください。',
    en: 'The identity provider could not be reached. Please try again later.',
  },
  SSO_STATE_INVALID: {
    status: 400,
    ja: 'シングルサインオンの要求が無効か期限切れです。最初からやり直してください。',
    en: 'The single sign-on request is invalid or has expired. Please start again.',
  },
  SSO_NONCE_MISMATCH: {
    status: 400,
    ja: 'IDプロバイダーの応答がこのログイン要求のものではありません。最初からやり直してください。',
    en: 'The identity provider’s answer does not belong to this sign-in request. Please start again.',
  },
  SSO_ISSUER_MISMATCH: {
    status: 400,
    ja: 'この組織に登録されていないIDプロバイダーからの応答です。組織コードをご確認ください。',
    en: 'The answer came from an identity provider not registered for this organization. Check the organization code.',
  },
  SSO_SIGN_IN_FAILED: {
    status: 400,
    ja: 'IDプロバイダーでのログインを完了できませんでした。最初からやり直してください。',
    en: 'The sign-in at the identity provider could not be completed. Please start again.',
  },
  SSO_EMAIL_NOT_VERIFIED: {
    status: 422,
    ja: 'IDプロバイダーでメールアドレスが確認されていないため、ログインできません。',
    en: 'You cannot sign in because the identity provider has not verified your e-mail address.',
  },
  SSO_ACCOUNT_NOT_FOUND: {
    status: 403,
    ja: 'このIDプロバイダーのアカウントに対応するユーザーがこの組織に登録されていません。管理者にお問い合わせください。',
    en: 'No user of this organization matches your identity provider account. Contact your administrator.',
  },
  // Box (plugins/box).
  BOX_NOT_CONFIGURED: {
    status: 503,
    ja: 'このサービスではBox連携が設定されていません。サービスの運営者にお問い合わせください。',
    en: 'Box integration is not set up on this service. Contact the service operator.',
  },
  BOX_NOT_CONNECTED: {
    status: 409,
    ja: 'Boxアカウントが連携されていません。組織管理のBox連携から連携してください。',
    en: 'No Box account is connected. Connect one in the organization’s Box settings.',
  },
  BOX_AUTH_FAILED: {
    status: 502,
    ja: 'Box認証に失敗しました。組織管理のBox連携から再度連携してください。',
    en: 'Box authentication failed. Connect the Box account again in the organization’s Box settings.',
  },
  BOX_STATE_INVALID: {
    status: 400,
    ja: 'Box連携の要求が無効か期限切れです。最初からやり直してください。',
    en: 'The Box connection request is invalid or has expired. Please start again.',
  },
  BOX_REDIRECT_URI_INVALID: {
    status: 422,
    ja: 'Box連携の戻り先URLがこのサービスのものではありません。',
    en: 'The Box callback address does not belong to this service.',
  },
  WEBHOOK_URL_INVALID: {
    status: 422,
    ja: 'WebhookのURLはhttpsで始まるURLを入力してください（ユーザー名・パスワードは含められません）。',
    en: 'Enter a webhook URL that starts with https (without a user name or password).',
  },
  WEBHOOK_URL_FORBIDDEN: {
    status: 422,
    ja: 'このURLには送信できません。インターネットから到達できる公開アドレスを指定してください。',
    en: 'Webhooks cannot be sent to this URL. Use an address reachable on the public internet.',
  },
  WEBHOOK_ENDPOINT_LIMIT: {
    status: 409,
    ja: 'Webhookの送信先は10件まで登録できます。',
    en: 'An organization can have at most 10 webhook endpoints.',
  },
  WEBHOOK_ENDPOINT_DISABLED: {
    status: 409,
    ja: 'この送信先は停止中です。再開してから送信してください。',
    en: 'This endpoint is disabled. Enable it before sending.',
  },
  BOX_FOLDER_NOT_FOUND: {
    status: 404,
    ja: 'Boxのフォルダーが見つかりません。削除されたか、アクセス権がない可能性があります。',
    en: 'The Box folder was not found. It may have been deleted, or the account cannot access it.',
  },
  BOX_UPLOAD_NOT_FOUND: {
    status: 404,
    ja: 'この書類はまだBoxに送信されていません。',
    en: 'This document has not been sent to Box.',
  },
  BOX_UNAVAILABLE: {
    status: 502,
    ja: 'Boxに接続できませんでした。しばらくしてから再度お試しください。',
    en: 'Box could not be reached. Please try again later.',
  },
  // AI-OCR (plugins/ai-ocr) and reading positions on document templates.
  TEMPLATE_SAMPLE_NOT_FOUND: {
    status: 404,
    ja: 'このテンプレートにはサンプルPDFがありません。',
    en: 'This template has no sample PDF.',
  },
  READING_POSITION_DUPLICATE: {
    status: 422,
    ja: '一つのカスタム項目に読み取り位置は一つだけ設定できます。',
    en: 'A property can have only one reading position.',
  },
  OCR_NO_READING_POSITIONS: {
    status: 422,
    ja: '読み取り位置が設定された書類テンプレートがないため、読み取れません。',
    en: 'This document cannot be read: no document template with reading positions applies to it.',
  },
  OCR_ALREADY_RUNNING: {
    status: 409,
    ja: 'この書類は読み取り中です。終わるまでお待ちください。',
    en: 'This document is being read. Please wait until it finishes.',
  },
  OCR_ALLOWANCE_EXCEEDED: {
    status: 403,
    ja: '今月のAI-OCR読み取りページ数の上限を超えるため、読み取りをスキップしました。',
    en: 'Reading was skipped: it would exceed this month’s AI-OCR page allowance.',
  },
  OCR_PROPOSAL_DECIDED: {
    status: 409,
    ja: 'この読み取り結果は既に確定または却下されています。',
    en: 'This reading result has already been accepted or rejected.',
  },
  OCR_VALUE_MISSING: {
    status: 422,
    ja: '読み取った文字をこのカスタム項目の値として解釈できませんでした。値を修正してから確定してください。',
    en: 'The text read could not be understood as a value of this property. Edit the value before accepting it.',
  },
  OCR_READING_OUTDATED: {
    status: 409,
    ja: 'この読み取り結果は古い版のPDFから読み取ったものです。新しい版を読み取ってください。',
    en: 'These results were read from an earlier version of the PDF. Read the new version.',
  },
  OCR_ENGINE_FAILED: {
    status: 500,
    ja: '文字認識エンジンが異常終了したため、読み取れませんでした。書類はそのまま使えます。',
    en: 'The text recognition engine failed, so the document was not read. The document can still be used.',
  },
  OCR_PAGE_TIMEOUT: {
    status: 500,
    ja: 'ページの読み取りが時間内に終わりませんでした。書類はそのまま使えます。',
    en: 'Reading a page took too long. The document can still be used.',
  },
  OCR_PDF_UNREADABLE: {
    status: 422,
    ja: 'このPDFからは文字を読み取れませんでした。書類はそのまま使えます。',
    en: 'No text could be read from this PDF. The document can still be used.',
  },
  SMS_STATUS_SIGNATURE_INVALID: {
    status: 403,
    ja: 'SMS配信状況の通知の署名を確認できませんでした。',
    en: 'The signature of the SMS delivery status report could not be verified.',
  },
  GROUP_NAME_TAKEN: {
    status: 422,
    ja: '同じ名前のグループが既に登録されています。',
    en: 'A group with this name is already registered.',
  },
  GROUP_LIMIT: {
    status: 422,
    ja: 'ご契約のプランで登録できるグループは{max}件までです。',
    en: 'Your plan allows at most {max} groups.',
  },
  GROUP_ADMIN_CANNOT_BE_REMOVED: {
    status: 422,
    ja: 'グループ管理者はグループから外せません。先にグループ管理者の権限を外してください。',
    en: 'A group administrator cannot be removed from the group. Remove the administrator right first.',
  },
  GROUP_DELETE_LEAVES_USER_WITHOUT_GROUP: {
    status: 409,
    ja: '所属グループがなくなるユーザーがいるため、このグループは削除できません。',
    en: 'This group cannot be deleted because a user would be left without a group.',
  },
  GROUP_IN_USE: {
    status: 409,
    ja: 'ワークスペースに参加しているため、このグループは削除できません。',
    en: 'This group cannot be deleted while it takes part in a workspace.',
  },
  ALREADY_GROUP_MEMBER: {
    status: 409,
    ja: 'このユーザーは既にグループのメンバーです。',
    en: 'This user is already a member of the group.',
  },
  ROLE_NAME_TAKEN: {
    status: 422,
    ja: '同じ名前のロールが既に登録されています。',
    en: 'A role with this name is already registered.',
  },
  ROLE_LIMIT: {
    status: 422,
    ja: '登録できるロールは{max}件までです。',
    en: 'You can register at most {max} roles.',
  },
  ROLE_IN_USE: {
    status: 409,
    ja: 'ユーザーに割り当てられているため、このロールは削除できません。',
    en: 'This role is assigned to users and cannot be deleted.',
  },
  ROLE_CANNOT_PERFORM_TASK: {
    status: 422,
    ja: 'このロールではこのタスクを実行できません。',
    en: 'This role cannot perform this task.',
  },
  PROPERTY_VALUE_REQUIRED: {
    status: 422,
    ja: '必須項目です。入力してください。',
    en: 'This item is required.',
  },
  PROPERTY_VALUE_NOT_A_NUMBER: {
    status: 422,
    ja: '半角数字で入力してください。',
    en: 'Enter a number in half-width digits.',
  },
  PROPERTY_VALUE_NOT_AN_INTEGER: {
    status: 422,
    ja: '整数で入力してください。',
    en: 'Enter an integer.',
  },
  PROPERTY_VALUE_TOO_MANY_DIGITS: {
    status: 422,
    ja: '数値は合計{max}桁以内で入力してください。',
    en: 'Enter a number of at most {max} digits in total.',
  },
  PROPERTY_VALUE_INTEGER_DIGITS: {
    status: 422,
    ja: '整数部は{max}桁以内で入力してください。',
    en: 'Enter at most {max} digits before the decimal point.',
  },
  PROPERTY_VALUE_DECIMAL_DIGITS: {
    status: 422,
    ja: '小数部は{max}桁以内で入力してください。',
    en: 'Enter at most {max} digits after the decimal point.',
  },
  PROPERTY_VALUE_COMMA_POSITION: {
    status: 422,
    ja: 'カンマの位置が正しくありません。カンマは3桁ごとに入力してください。',
    en: 'The commas are misplaced. Put a comma every three digits (e.g. 1,234,567).',
  },
  PROPERTY_VALUE_BELOW_MIN: {
    status: 422,
    ja: '{min}以上の値を入力してください。',
    en: 'Enter {min} or more.',
  },
  PROPERTY_VALUE_ABOVE_MAX: {
    status: 422,
    ja: '{max}以下の値を入力してください。',
    en: 'Enter {max} or less.',
  },
  PROPERTY_VALUE_DATE_FORMAT: {
    status: 422,
    ja: '日付はyyyy-MM-ddまたはyyyy/MM/ddの形式で入力してください。',
    en: 'Enter the date as yyyy-MM-dd or yyyy/MM/dd.',
  },
  PROPERTY_VALUE_DATE_NOT_EXIST: {
    status: 422,
    ja: '存在しない日付です。',
    en: 'This date does not exist.',
  },
  PROPERTY_VALUE_DATE_BEFORE_TOMORROW: {
    status: 422,
    ja: '明日以降の日付（{date}以降）を入力してください。',
    en: 'Enter a date from tomorrow ({date}) onwards.',
  },
  PROPERTY_VALUE_NOT_AN_OPTION: {
    status: 422,
    ja: '選択肢の中から選択してください。',
    en: 'Choose one of the options.',
  },
  PROPERTY_VALUE_TOO_SHORT: {
    status: 422,
    ja: '{min}文字以上で入力してください。',
    en: 'Enter at least {min} characters.',
  },
  PROPERTY_VALUE_TOO_LONG: {
    status: 422,
    ja: '{max}文字以内で入力してください。',
    en: 'Enter at most {max} characters.',
  },
  PROPERTY_VALUE_NEWLINE: {
    status: 422,
    ja: '改行は入力できません。',
    en: 'Line breaks are not allowed.',
  },
  PROPERTY_VALUE_FULL_WIDTH: {
    status: 422,
    ja: '全角文字は入力できません。半角で入力してください。',
    en: 'Full-width characters are not allowed. Use half-width characters.',
  },
  PROPERTY_SETTING_OUT_OF_RANGE: {
    status: 422,
    ja: '{min}から{max}までの整数を入力してください。',
    en: 'Enter a whole number from {min} to {max}.',
  },
  PROPERTY_MIN_LENGTH_EXCEEDS_MAX: {
    status: 422,
    ja: '最小文字数は最大文字数以下にしてください。',
    en: 'The minimum length must not exceed the maximum length.',
  },
  PROPERTY_DIGITS_EXCEED_LIMIT: {
    status: 422,
    ja: '整数部と小数部の桁数の合計は{max}桁以内にしてください。',
    en: 'Integer and decimal digits together must not exceed {max}.',
  },
  PROPERTY_MIN_VALUE_EXCEEDS_MAX: {
    status: 422,
    ja: '最小値は最大値以下にしてください。',
    en: 'The minimum value must not exceed the maximum value.',
  },
  PROPERTY_OPTIONS_REQUIRED: {
    status: 422,
    ja: '選択肢を1つ以上登録してください。',
    en: 'Add at least one option.',
  },
  PROPERTY_OPTION_LIMIT: {
    status: 422,
    ja: '選択肢は{max}件まで登録できます。',
    en: 'You can add at most {max} options.',
  },
  PROPERTY_OPTION_LABEL_DUPLICATE: {
    status: 422,
    ja: '同じ名前の選択肢があります。',
    en: 'Another option has the same label.',
  },
  PROPERTY_EDITABLE_REQUIRES_PUBLIC: {
    status: 422,
    ja: '取引先による編集を許可するには、取引先への公開も設定してください。',
    en: 'To let clients edit it, also make it public to clients.',
  },
  PROPERTY_NAME_TAKEN: {
    status: 422,
    ja: 'この名前のカスタム項目は既に登録されています。',
    en: 'A custom property with this name already exists.',
  },
  PROPERTY_LIMIT: {
    status: 422,
    ja: '登録できるカスタム項目は{max}件までです。',
    en: 'You can register at most {max} properties.',
  },
  PROPERTY_IN_USE: {
    status: 409,
    ja: 'この項目は使用中のため、削除や入力形式・対象の変更はできません。',
    en: 'This item is in use: it cannot be deleted, and its input type and scope cannot be changed.',
  },
  PROPERTY_OPTION_IN_USE: {
    status: 409,
    ja: '使用中の選択肢は削除できません。',
    en: 'An option in use cannot be deleted.',
  },
  PROPERTY_OPTIONS_CHANGED: {
    status: 409,
    ja: '他のユーザーによって選択肢が追加・削除・変更されました。',
    en: 'Options have been added, deleted or renamed by another user.',
  },
  PROPERTY_DEFINITION_CHANGED: {
    status: 409,
    ja: 'カスタム項目の定義が更新されました。',
    en: 'The custom property definition has been updated.',
  },
  LOG_RANGE_TOO_LONG: {
    status: 422,
    ja: 'ログの出力期間は{max}日以内で指定してください。',
    en: 'Log output range at most {max} days.',
  },
  LOG_RANGE_INVERTED: {
    status: 422,
    ja: '開始日には終了日以前の日付を指定してください。',
    en: 'The start must not be after the end.',
  },
  WORKSPACE_HAS_BUSINESS_FLOWS: {
    status: 409,
    ja: '業務フローがあるワークスペースは削除できません。',
    en: 'A workspace with business flows cannot be deleted.',
  },
  WORKSPACE_NAME_TAKEN: {
    status: 409,
    ja: '同じ名前のワークスペースが既にあります。',
    en: 'A workspace with this name already exists.',
  },
  WORKSPACE_PARTICIPANT_DUPLICATE: {
    status: 409,
    ja: 'この参加者は既にワークスペースに参加しています。',
    en: 'This participant already takes part in the workspace.',
  },
  WORKSPACE_PARTICIPANT_REQUIRED: {
    status: 422,
    ja: '自組織のグループを1つ以上参加させてください。',
    en: 'Add at least one group of your own organization.',
  },
  WORKSPACE_PARTICIPANT_IN_USE: {
    status: 409,
    ja: 'タスクが割り当てられている参加者は削除できません。',
    en: 'A participant with assigned tasks cannot be removed.',
  },
  PARTNER_ORGANIZATION_NOT_FOUND: {
    status: 422,
    ja: '取引先の組織が見つかりません。サービスに登録済みの組織を指定してください。',
    en: 'The partner organization was not found. Choose an organization registered on the service.',
  },
  PARTNER_IS_OWN_ORGANIZATION: {
    status: 422,
    ja: '自組織を取引先として追加することはできません。',
    en: 'Your own organization cannot be added as a partner.',
  },
  WORKSPACE_EDIT_NOT_ALLOWED: {
    status: 403,
    ja: 'このワークスペースで編集する権限がありません。',
    en: 'You may not edit in this workspace.',
  },
  WORKSPACE_INVITATION_INVALID: {
    status: 404,
    ja: 'この招待リンクは無効です。取り消されたか、新しいリンクが送られています。',
    en: 'This invitation link is invalid. It was cancelled or replaced by a newer link.',
  },
  WORKSPACE_INVITATION_EXPIRED: {
    status: 410,
    ja: 'この招待リンクは有効期限が切れています。招待した方に再送を依頼してください。',
    en: 'This invitation link has expired. Ask the person who invited you to send it again.',
  },
  WORKSPACE_INVITATION_USED: {
    status: 410,
    ja: 'この招待リンクは使用済みです。',
    en: 'This invitation link has already been used.',
  },
  WORKSPACE_INVITATION_DUPLICATE: {
    status: 409,
    ja: 'このメールアドレスには未承諾の招待があります。再送してください。',
    en: 'This address already has a pending invitation. Send it again instead.',
  },
  WORKSPACE_INVITATION_NOT_PENDING: {
    status: 409,
    ja: 'この招待は承諾済みか取り消し済みのため、変更できません。',
    en: 'This invitation was accepted or cancelled and can no longer be changed.',
  },
  WORKSPACE_INVITATION_ACCEPT_FORBIDDEN: {
    status: 403,
    ja: '招待を承諾できるのは、組織の管理者か、招待されたメールアドレスのユーザーです。',
    en: 'Only an administrator of your organization or the user with the invited address can accept.',
  },
  BUSINESS_FLOW_CANCELLED: {
    status: 409,
    ja: '取り消された業務フローは更新できず、書類を追加できません。',
    en: 'A cancelled business flow cannot be updated and accepts no documents.',
  },
  BUSINESS_FLOW_STATUS_INVALID: {
    status: 409,
    ja: '現在の状態からこの状態へは変更できません。',
    en: 'The business flow cannot move from its current status to this one.',
  },
  BUSINESS_FLOW_NOT_DRAFT: {
    status: 409,
    ja: 'この業務フローは下書きではないため、送信・破棄できません。',
    en: 'This business flow is not a draft, so it cannot be sent or discarded.',
  },
  DRAFT_HAS_NO_DOCUMENTS: {
    status: 422,
    ja: '書類を1つ以上追加してから送信してください。',
    en: 'Add at least one document before sending.',
  },
  DRAFT_DOCUMENT_WITHOUT_TASKS: {
    status: 422,
    ja: '宛先が設定されていない書類があります。書類ごとに宛先を1つ以上設定してください。',
    en: 'A document has no recipients. Set at least one recipient for each document.',
  },
  PAGE_CURSOR_INVALID: {
    status: 400,
    ja: 'ページの指定が正しくありません。一覧の最初のページから読み直してください。',
    en: 'The page cursor (page[after]) is invalid. Read the list again from its first page.',
  },
  SEARCH_RANGE_INVALID: {
    status: 422,
    ja: '検索範囲の指定が正しくありません（開始が終了より後になっています）。',
    en: 'The search range is invalid (its start is after its end).',
  },
  SEARCH_PROPERTY_INVALID: {
    status: 422,
    ja: '検索条件のカスタム項目が正しくありません。',
    en: 'A custom property in the search is invalid.',
  },
  DOCUMENT_BEING_SCANNED: {
    status: 409,
    ja: '書類をウイルススキャン中です。しばらくしてから再度お試しください。',
    en: 'The document is being scanned. Please retry later.',
  },
  DOCUMENT_MALICIOUS: {
    status: 409,
    ja: 'この書類から不正なファイルが検出されました。差し戻しまたは取り消しのうえ、再アップロードしてください。',
    en: 'A malicious file was detected in this document. Remand or cancel it, then upload it again.',
  },
  DOCUMENT_SCAN_FAILED: {
    status: 409,
    ja: '書類のウイルススキャンに失敗しました。再アップロードしてください。',
    en: 'The document could not be scanned. Please upload it again.',
  },
  DOCUMENT_NOT_IN_PROGRESS: {
    status: 409,
    ja: 'この書類は進行中ではないため、この操作はできません。',
    en: 'This document is not in progress, so this cannot be done.',
  },
  DOCUMENT_NOT_COMPLETED: {
    status: 409,
    ja: 'この書類はまだ完了していないため、合意締結証明書を発行できません。',
    en: 'This document is not completed yet, so no certificate of completion can be issued.',
  },
  DOCUMENT_RENAME_OWNER_ONLY: {
    status: 403,
    ja: '書類名を変更できるのはワークスペースのオーナー組織だけです。',
    en: 'Only the workspace owner organization can rename a document.',
  },
  DOCUMENT_CANCEL_COMMENT_REQUIRED: {
    status: 422,
    ja: '取り消しの理由を入力してください。',
    en: 'Enter the reason for the cancellation.',
  },
  DOCUMENT_REUPLOAD_NOT_ALLOWED: {
    status: 409,
    ja: '差し戻された書類、または検出により停止した書類だけ再アップロードできます。',
    en: 'Only a remanded document, or one stopped by a malicious verdict, can be uploaded again.',
  },
  FILE_REQUIRED: {
    status: 422,
    ja: 'ファイルを選択してください。',
    en: 'Choose a file.',
  },
  FILE_EMPTY: {
    status: 422,
    ja: '空のファイルはアップロードできません。',
    en: 'An empty file cannot be uploaded.',
  },
  FILE_TOO_LARGE: {
    status: 413,
    ja: 'ファイルサイズが上限（{maxMb}MB）を超えています。',
    en: 'The file is larger than the limit ({maxMb} MB).',
  },
  FILE_NAME_TOO_LONG: {
    status: 422,
    ja: 'ファイル名は100文字以内にしてください。',
    en: 'The file name must be at most 100 characters.',
  },
  FILE_TYPE_NOT_ALLOWED: {
    status: 422,
    ja: 'ここでアップロードできないファイル形式です（{allowed}）。',
    en: 'This file type cannot be uploaded here ({allowed}).',
  },
  FILE_EXECUTABLE: {
    status: 422,
    ja: '実行ファイルはアップロードできません。',
    en: 'Executable files cannot be uploaded.',
  },
  FILE_PASSWORD_PROTECTED: {
    status: 422,
    ja: 'パスワードで保護されたPDFはアップロードできません。',
    en: 'Password-protected PDFs cannot be uploaded.',
  },
  FILE_CORRUPTED: {
    status: 422,
    ja: 'PDFが破損しているため読み込めません。',
    en: 'The PDF is corrupted and cannot be read.',
  },
  FILE_MALWARE_DETECTED: {
    status: 422,
    ja: 'ウイルスが検出されたためアップロードできません。',
    en: 'A virus was detected, so the file cannot be uploaded.',
  },
  FILE_ACTIVE_CONTENT: {
    status: 422,
    ja: 'JavaScriptや起動アクション、実行ファイルの添付を含むPDFはアップロードできません。',
    en: 'PDFs with JavaScript, launch actions or embedded executables cannot be uploaded.',
  },
  TASK_ORDER_ONE_NOT_UNIQUE: {
    status: 422,
    ja: '順番1のタスクは1つだけにしてください。',
    en: 'Only one task may have order 1.',
  },
  TASK_ORDER_GAP: {
    status: 422,
    ja: 'タスクの順番は1から連番にしてください。',
    en: 'Task orders must run from 1 without gaps.',
  },
  TASK_READ_NOT_LAST: {
    status: 422,
    ja: '閲覧タスクは最後または並列にのみ設定できます。',
    en: 'A read task may only be last or parallel.',
  },
  TASK_OWN_GROUP_REQUIRED: {
    status: 422,
    ja: '自組織のグループに必須タスクを1つ以上割り当ててください。',
    en: 'At least one required task must belong to a group of your own organization.',
  },
  TASK_OWNER_ORGANIZATION_REQUIRED: {
    status: 422,
    ja: 'ワークスペースのオーナー組織にタスクを1つ以上割り当ててください。',
    en: 'The workspace owner organization needs at least one task.',
  },
  TASK_ASSIGNEE_NOT_PARTICIPANT: {
    status: 422,
    ja: 'タスクの担当はワークスペースの参加者から選んでください。',
    en: 'Assign tasks to participants of the workspace.',
  },
  TASK_ASSIGNEE_CANNOT_USE: {
    status: 422,
    ja: 'ワンタイムユーザーのタスクには、電子証明書を使う署名方法やSMS認証は設定できません。',
    en: 'A one-time user cannot sign with an e-certificate or receive codes by SMS.',
  },
  TASK_TEMPLATE_ID_DUPLICATE: {
    status: 409,
    ja: 'タスクのテンプレートIDが書類内で重複しています。',
    en: 'Task template IDs must be unique within a document.',
  },
  TASK_LIMIT: {
    status: 422,
    ja: 'タスクは1書類あたり{max}件までです。',
    en: 'A document may have at most {max} tasks.',
  },
  TASK_NOT_EXECUTABLE: {
    status: 409,
    ja: 'このタスクは現在実行できません。',
    en: 'This task cannot be run now.',
  },
  TASK_NOT_ASSIGNED_TO_YOU: {
    status: 403,
    ja: 'このタスクの担当者ではありません。',
    en: 'This task is not assigned to you.',
  },
  ONE_TIME_TERMS_REQUIRED: {
    status: 403,
    ja: '利用規約への同意が必要です。利用規約を確認してください。',
    en: 'Please accept the terms of use first.',
  },
  INVITATION_LINK_INVALID: {
    status: 404,
    ja: 'この招待リンクまたはアクセスコードは無効です。最新の招待メールをご確認ください。',
    en: 'This invitation link or access code is not valid. Please use the latest invitation mail.',
  },
  INVITATION_LINK_EXPIRED: {
    status: 410,
    ja: '招待リンクの有効期限が切れています。招待した方に再送信を依頼してください。',
    en: 'The invitation link has expired. Please ask the sender to send it again.',
  },
  INVITATION_CANCELLED: {
    status: 410,
    ja: 'この招待は取り消されました。',
    en: 'This invitation was cancelled.',
  },
  QR_CODE_EXPIRED: {
    status: 410,
    ja: 'QRコードの有効期限が切れています。新しいQRコードを表示してもらってください。',
    en: 'The QR code has expired. Please ask for a new QR code.',
  },
  ONE_TIME_CODE_INVALID: {
    status: 422,
    ja: '認証コードが正しくありません。',
    en: 'The verification code is wrong.',
  },
  ONE_TIME_CODE_EXPIRED: {
    status: 422,
    ja: '認証コードの有効期限が切れています。認証コードを再送信してください。',
    en: 'The verification code has expired. Please send a new code.',
  },
  ONE_TIME_CODE_LOCKED: {
    status: 429,
    ja: '認証コードを続けて間違えたため、ロックしました。約{minutes}分後に再度お試しください。',
    en: 'Locked after repeated wrong codes. Please try again in about {minutes} minutes.',
  },
  ONE_TIME_USER_EMAIL_TAKEN: {
    status: 409,
    ja: 'このメールアドレスは、このワークスペースの別のワンタイムユーザーが使用しています。',
    en: 'Another one-time user of this workspace already uses this e-mail address.',
  },
  ONE_TIME_INVITATION_EXISTS: {
    status: 409,
    ja: 'このワンタイムユーザーは、この業務フローに既に招待されています。',
    en: 'This one-time user is already invited to this business flow.',
  },
  ONE_TIME_INVITATION_STATUS_INVALID: {
    status: 409,
    ja: '招待の現在の状態では、この操作はできません。',
    en: 'This action is not possible in the current state of the invitation.',
  },
  TASK_RULE_CHANGE_FORBIDDEN: {
    status: 403,
    ja: '開始済みのタスクの担当者・役割・署名方法は、ワークスペースを所有する組織の管理者だけが変更できます。',
    en: "Only an administrator of the workspace's owner organization can change the assignee, role or signing method of a task under way.",
  },
  TASK_TYPE_MISMATCH: {
    status: 409,
    ja: 'このタスクの種類ではこの操作はできません。',
    en: 'This action does not match the task type.',
  },
  TASK_REASON_REQUIRED: {
    status: 422,
    ja: '理由を入力してください。',
    en: 'Enter a reason.',
  },
  REMAND_TARGET_INVALID: {
    status: 422,
    ja: '差し戻し先は現在より前の順番から選んでください。',
    en: 'Choose an earlier order to remand to.',
  },
  TASKS_LOCKED: {
    status: 409,
    ja: '実行が始まった書類のタスクは変更できません。',
    en: 'Tasks cannot be changed once the document is under way.',
  },
  DOCUMENT_TEMPLATE_ID_DUPLICATE: {
    status: 409,
    ja: '書類のテンプレートIDが業務フローテンプレート内で重複しています。',
    en: 'Document template IDs must be unique within a business flow template.',
  },
  TEMPLATE_NAME_TAKEN: {
    status: 409,
    ja: '同じ名前のテンプレートが既にあります。',
    en: 'A template with this name already exists.',
  },
  TEMPLATE_IN_USE: {
    status: 409,
    ja: '業務フローテンプレートで使われている書類テンプレートは削除できません。',
    en: 'A document template used by a business flow template cannot be deleted.',
  },
  SIGNATURE_TYPE_UNAVAILABLE: {
    status: 409,
    ja: 'この署名方法は現在利用できません。',
    en: 'This signature type is not available right now.',
  },
  SIGNING_EMAIL_NOT_CONFIRMED: {
    status: 403,
    ja: 'メールアドレスの到達確認が完了していないため、署名できません。確認メールのリンクを開いてください。',
    en: 'You cannot sign until your e-mail address is confirmed. Open the link in the confirmation mail.',
  },
  SIGNING_POSITION_OUT_OF_RANGE: {
    status: 422,
    ja: '位置が範囲外です。',
    en: 'The position is out of range.',
  },
  SIGNING_PAGE_NOT_FOUND: {
    status: 422,
    ja: '指定されたページは書類にありません。',
    en: 'The page does not exist in the document.',
  },
  SIGNING_PLACEMENT_REQUIRED: {
    status: 422,
    ja: 'この署名方法では、印影または手書きサインの位置を指定してください。',
    en: 'This signature type needs a seal or handwritten placement.',
  },
  SIGNING_FIELD_REQUIRED: {
    status: 422,
    ja: '入力が必要な欄が残っています。すべての必須の欄を入力してください。',
    en: 'A required field is not filled in. Fill in every required field.',
  },
  SIGNING_OWN_PLACEMENT_NOT_ALLOWED: {
    status: 422,
    ja: 'この書類では、送信者が指定した欄にのみ入力できます。',
    en: 'On this document you can fill in only the fields the sender placed.',
  },
  SIGNING_FIELD_KIND_MISMATCH: {
    status: 422,
    ja: 'この欄には、指定された種類（印影・手書きサイン・文字）で入力してください。',
    en: 'Fill in this field with the kind it asks for (seal, handwritten signature or text).',
  },
  SIGNING_FIELD_NOT_FOUND: {
    status: 422,
    ja: '指定された欄はこのタスクにありません。',
    en: 'The field does not belong to this task.',
  },
  SIGNING_TEXT_TOO_LONG: {
    status: 422,
    ja: '埋め込む文字は1行7文字、3行までです。',
    en: 'Embedded text is limited to 7 characters per line and 3 lines.',
  },
  SIGNING_IMAGE_INVALID: {
    status: 422,
    ja: '画像を読み込めません。PNG、JPEG、GIFの画像を指定してください。',
    en: 'The image cannot be read. Use a PNG, JPEG or GIF image.',
  },
  DOCUMENT_SIGNATURE_BROKEN: {
    status: 409,
    ja: '書類の既存の署名が検証できないため、署名を追加できません。',
    en: 'A signature already in the document does not verify, so no signature can be added.',
  },
  TSA_UNAVAILABLE: {
    status: 503,
    ja: 'タイムスタンプ局に接続できなかったため、署名できませんでした。時間をおいて再度お試しください。',
    en: 'The timestamp authority could not be reached, so nothing was signed. Please try again later.',
  },
  TSA_RESPONSE_INVALID: {
    status: 502,
    ja: 'タイムスタンプ局の応答が正しくないため、署名できませんでした。',
    en: "The timestamp authority's answer is not valid, so nothing was signed.",
  },
  REVOCATION_UNAVAILABLE: {
    status: 503,
    ja: '証明書の失効情報を確認できないため、署名できませんでした。時間をおいて再度お試しください。',
    en: 'The revocation status of a certificate could not be checked, so nothing was signed. Please try again later.',
  },
  SIGNING_KEY_REVOKED: {
    status: 503,
    ja: 'サービスの署名用証明書が失効しているため、署名できませんでした。運営者にお問い合わせください。',
    en: "The service's signing certificate has been revoked, so nothing was signed. Please contact the operator.",
  },
  DOCUMENT_CERTIFIED_NO_CHANGES: {
    status: 409,
    ja: 'この書類は変更を許可しない作成者署名（認証）がされているため、署名を追加できません。',
    en: 'This document is certified with no changes allowed, so no signature can be added.',
  },
  DOCUMENT_CERTIFIED_NO_ANNOTATIONS: {
    status: 409,
    ja: 'この書類の作成者署名（認証）は注釈の追加を許可していないため、印影や文字は署名欄の1か所にだけ配置できます。',
    en: "This document's certification allows no annotations, so a seal or text can be placed only in the signature field itself.",
  },
  VERIFICATION_BUDGET_EXCEEDED: {
    status: 422,
    ja: 'PDFの構造が複雑すぎるため、制限時間内に検証できませんでした。',
    en: 'The PDF is too complex to verify within the limits.',
  },
  VERIFICATION_BUSY: {
    status: 503,
    ja: '検証の処理が混み合っています。時間をおいて再度お試しください。',
    en: 'Too many verifications are running. Please try again later.',
  },
  PDF_TOO_COMPLEX: {
    status: 422,
    ja: 'PDFが処理の上限（展開後の大きさ、オブジェクト数、入れ子の深さ、処理時間）を超えているため、処理できません。',
    en: 'The PDF exceeds the processing limits (inflated size, objects, nesting or time), so it cannot be processed.',
  },
  PDF_WORK_BUSY: {
    status: 503,
    ja: 'PDFの処理が混み合っています。時間をおいて再度お試しください。',
    en: 'Too many PDFs are being processed. Please try again later.',
  },
  SIGNING_CODE_REQUIRED: {
    status: 422,
    ja: '認証コードを入力してください。',
    en: 'Enter the verification code.',
  },
  SIGNING_CODE_INVALID: {
    status: 422,
    ja: '認証コードが正しくありません。',
    en: 'The verification code is wrong.',
  },
  SIGNING_CODE_EXPIRED: {
    status: 422,
    ja: '認証コードの有効期限が切れています。認証コードを再送信してください。',
    en: 'The verification code has expired. Send a new code.',
  },
  SIGNING_CODE_LOCKED: {
    status: 429,
    ja: '認証コードを続けて間違えたため、ロックしました。約15分後に再度お試しください。',
    en: 'Locked after repeated wrong codes. Please try again in about 15 minutes.',
  },
  SIGNING_CODE_SMS_NUMBER_INVALID: {
    status: 422,
    ja: '認証コードのSMSは060、070、080、090で始まる携帯電話番号にのみ送信できます。',
    en: 'Verification codes by SMS go only to mobile numbers starting 060, 070, 080 or 090.',
  },
  E_CERTIFICATE_NOT_REGISTERED: {
    status: 409,
    ja: '電子証明書が登録されていません。',
    en: 'No e-certificate is registered.',
  },
  E_CERTIFICATE_EXPIRED: {
    status: 409,
    ja: '電子証明書の有効期限が切れています。',
    en: 'The e-certificate has expired.',
  },
  E_CERTIFICATE_INVALID: {
    status: 422,
    ja: '電子証明書が無効です。',
    en: 'The e-certificate is not valid.',
  },
  E_CERTIFICATE_REVOKED: {
    status: 409,
    ja: '電子証明書は発行元により失効されているため、署名できません。',
    en: 'The e-certificate has been revoked by its issuer, so nothing can be signed with it.',
  },
  E_CERTIFICATE_FILE_INVALID: {
    status: 422,
    ja: '電子証明書ファイル（PKCS#12）を読み込めません。',
    en: 'The e-certificate file (PKCS#12) cannot be read.',
  },
  E_CERTIFICATE_KEY_UNSUPPORTED: {
    status: 422,
    ja: '電子証明書の鍵はRSA 2048ビット以上またはECDSA P-256である必要があります。',
    en: "The e-certificate's key must be RSA 2048 bits or more, or ECDSA P-256.",
  },
  E_CERTIFICATE_PIN_WRONG: {
    status: 422,
    ja: 'PINが正しくありません。',
    en: 'The PIN is wrong.',
  },
  E_CERTIFICATE_PIN_MISMATCH: {
    status: 422,
    ja: 'PINが一致しません。',
    en: 'The PINs do not match.',
  },
  E_CERTIFICATE_PIN_LOCKED: {
    status: 429,
    ja: 'PINを続けて間違えたため、ロックしました。約15分後に再度お試しください。',
    en: 'Locked after repeated wrong PINs. Please try again in about 15 minutes.',
  },
  SIGNER_IDENTITY_MISMATCH: {
    status: 409,
    ja: '電子証明書の名義が署名者と一致しないため、署名できません。',
    en: 'The e-certificate does not name the signer, so it cannot be used.',
  },
  AGENT_LIMIT: {
    status: 422,
    ja: '代理署名者の登録数が上限に達しています。',
    en: 'The maximum number of proxy signers has been reached.',
  },
  AGENT_DUPLICATE: {
    status: 409,
    ja: 'このユーザーは既に代理署名者として登録されています。',
    en: 'This user is already a proxy signer.',
  },
  AGENT_IS_SELF: {
    status: 422,
    ja: '自分自身を代理署名者に登録することはできません。',
    en: 'You cannot register yourself as a proxy signer.',
  },
  AGENT_NOT_AUTHORIZED: {
    status: 403,
    ja: 'このユーザーの電子証明書で署名する権限がありません。',
    en: "You may not sign with this user's e-certificate.",
  },
  SEAL_IMAGE_LIMIT: {
    status: 422,
    ja: '登録できる印影画像の数が上限に達しています。',
    en: 'The maximum number of seal images has been reached.',
  },
  EMAIL_CONFIRMATION_LINK_INVALID: {
    status: 422,
    ja: '確認リンクが無効か、有効期限が切れています。確認メールを再送信してください。',
    en: 'The confirmation link is invalid or has expired. Send a new confirmation mail.',
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
  meta?: { messages: Record<Locale, string>; params?: Record<string, string | number> };
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
      // The values the messages were filled with, for clients that word their own text (e.g. a plan feature's name).
      meta: Object.keys(params).length > 0 ? { messages, params } : { messages },
    };
    return body;
  };
  if (error.fields.length > 0) {
    return { errors: error.fields.map((field) => entry(field.code, field.params ?? {}, field.pointer, field.detail)) };
  }
  return { errors: [entry(error.code, error.params)] };
}
