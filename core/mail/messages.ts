import type { Locale } from '../http/errors.ts';
import { renderPlaceholders } from './placeholders.ts';

/**
 * Every mail the service sends. Each kind has a built-in template per language below; an organization may replace
 * it with its own (table mail_templates, core/modules/mail-templates). A new kind is added here, to the MailKind
 * enum in openapi.yaml and to the web's placeholder descriptions.
 */
export const MAIL_KINDS = [
  'welcome',
  'password-reset',
  'user-id-reminder',
  'password-changed',
  'user-invitation',
  'task-assigned',
  'document-remanded',
  'document-cancelled',
  'business-flow-completed',
  'email-confirmation',
  'signing-code',
  'one-time-invitation',
  'one-time-auth-code',
  'one-time-task-assigned',
  'one-time-business-flow-completed',
  'workspace-invitation',
  'box-auth-failed',
  'webhook-disabled',
] as const;

export type MailKind = (typeof MAIL_KINDS)[number];

/** What an organization may edit: the name and summary describe the mail in the list, subject and body are sent. */
export interface MailTemplateText {
  name: string;
  summary: string;
  subject: string;
  body: string;
}

/**
 * A kind's placeholders (`{{name}}`): those the body may use, those it must use for the mail to work, and those
 * whose value is a credential (a temporary password, a link holding a token, a code). Secret values never enter a
 * job: they wait sealed under the master key until the mail is sent, then are wiped (core/mail/outgoing.ts).
 */
export interface MailKindDefinition {
  placeholders: readonly string[];
  required: readonly string[];
  secret: readonly string[];
  defaults: Record<Locale, MailTemplateText>;
}

/** The footer every mail ends with; organizations cannot change it. */
export const SIGNATURE: Record<Locale, string> = {
  ja: '\n\n--\nKeiyaku 電子契約サービス\nこのメールは送信専用です。',
  en: '\n\n--\nKeiyaku electronic contracts\nThis address does not receive replies.',
};

/** The placeholders every mail about a business flow's documents and tasks may use, whichever event sent it. */
const DOCUMENT_TASK_PLACEHOLDERS = [
  'userName',
  'organizationName',
  'workspaceName',
  'businessFlowName',
  'documentName',
  'taskType',
  'reason',
  'toOrder',
  'link',
] as const;

export const MAIL_KIND_DEFINITIONS: Record<MailKind, MailKindDefinition> = {
  'webhook-disabled': {
    placeholders: ['userName', 'organizationName', 'endpointUrl', 'link'],
    required: ['link'],
    secret: [],
    defaults: {
      ja: {
        name: 'Webhook送信先の自動停止',
        summary: 'Webhookの送信が24時間以上続けて失敗し、送信先が自動で停止されたとき、組織の管理者に送信します。',
        subject: '【Keiyaku】Webhook送信先を停止しました',
        body: '{{userName}} 様\n\n{{organizationName}} のWebhook送信先（{{endpointUrl}}）への送信が24時間以上続けて失敗したため、送信先を停止しました。停止中のイベントは送信されません。\n\n受信側を確認し、下記の画面から送信先を再開してください。\n\n{{link}}',
      },
      en: {
        name: 'Webhook endpoint disabled',
        summary:
          "Sent to the organization's administrators when deliveries to a webhook endpoint kept failing for 24 hours and it was disabled.",
        subject: '[Keiyaku] A webhook endpoint was disabled',
        body: 'Dear {{userName}},\n\nDeliveries to the webhook endpoint of {{organizationName}} ({{endpointUrl}}) kept failing for more than 24 hours, so the endpoint was disabled. No events are sent to it while it is disabled.\n\nCheck the receiver, then enable the endpoint again on the page below.\n\n{{link}}',
      },
    },
  },
  'box-auth-failed': {
    placeholders: ['userName', 'organizationName', 'accountLogin', 'link'],
    required: ['link'],
    secret: [],
    defaults: {
      ja: {
        name: 'Box認証エラー',
        summary: 'Boxが連携の認証を拒否したとき（連携の解除、有効期限切れなど）、組織の管理者に送信します。',
        subject: '【Keiyaku】Box認証に失敗しました',
        body: '{{userName}} 様\n\n{{organizationName}} のBox連携（{{accountLogin}}）で、Box認証に失敗しました。完了した書類はBoxに保存されていません。\n\n下記の画面からBoxと再度連携してください。連携後、保存できなかった書類は書類の画面から「Boxに送信」で送信できます。\n\n{{link}}',
      },
      en: {
        name: 'Box authentication failure',
        summary:
          "Sent to the organization's administrators when Box refuses the connection's authorization (revoked or expired).",
        subject: '[Keiyaku] Box authentication failed',
        body: 'Dear {{userName}},\n\nBox authentication failed for the Box connection of {{organizationName}} ({{accountLogin}}). Completed documents are not being saved to Box.\n\nConnect Box again on the page below. Afterwards, send the documents that were not saved with "Send to Box" on their document page.\n\n{{link}}',
      },
    },
  },
  'workspace-invitation': {
    placeholders: ['inviterName', 'organizationName', 'workspaceName', 'email', 'expiresAt', 'link'],
    required: ['link'],
    secret: ['link'],
    defaults: {
      ja: {
        name: 'ワークスペースへの招待',
        summary: '取引先の組織をメールアドレスでワークスペースに招待するとき、参加用のリンクを送信します。',
        subject: '【Keiyaku】{{organizationName}}からワークスペース「{{workspaceName}}」への招待',
        body: '{{email}} 様\n\n{{organizationName}} の {{inviterName}} 様から、ワークスペース「{{workspaceName}}」に取引先として参加するよう招待が届いています。\n\n下記のリンクを開き、ログインするか組織を新規登録してから参加してください。リンクの有効期限は{{expiresAt}}です。\n\n{{link}}\n\nお心当たりがない場合は、このメールを破棄してください。',
      },
      en: {
        name: 'Workspace invitation',
        summary: 'Sends the join link to a partner organization invited to a workspace by e-mail address.',
        subject: '[Keiyaku] {{organizationName}} invites you to the workspace "{{workspaceName}}"',
        body: 'Dear {{email}},\n\n{{inviterName}} of {{organizationName}} invites your organization to take part in the workspace "{{workspaceName}}" as a partner.\n\nOpen the link below, sign in or sign your organization up, and join. The link expires at {{expiresAt}}.\n\n{{link}}\n\nIf you did not expect this, ignore this mail.',
      },
    },
  },
  welcome: {
    placeholders: ['userName', 'organizationName', 'loginId', 'link'],
    required: ['loginId', 'link'],
    secret: [],
    defaults: {
      ja: {
        name: '登録完了',
        summary: '組織の新規登録が完了したとき、登録したユーザーに送信します。',
        subject: '【Keiyaku】ご登録ありがとうございます',
        body: '{{userName}} 様\n\n{{organizationName}} の登録が完了しました。ユーザーID「{{loginId}}」でログインしてください。\n\n{{link}}',
      },
      en: {
        name: 'Welcome',
        summary: 'Sent to the user who signed an organization up, once the sign-up is complete.',
        subject: '[Keiyaku] Welcome to Keiyaku',
        body: 'Dear {{userName}},\n\n{{organizationName}} is registered. Sign in with the user ID "{{loginId}}".\n\n{{link}}',
      },
    },
  },
  'password-reset': {
    placeholders: ['userName', 'organizationName', 'minutes', 'link'],
    required: ['link'],
    secret: ['link'],
    defaults: {
      ja: {
        name: 'パスワード再設定',
        summary: 'パスワード再設定を申し込んだユーザーに、再設定用のリンクを送信します。',
        subject: '【Keiyaku】パスワード再設定のご案内',
        body: '{{userName}} 様\n\nパスワード再設定のお申し込みを受け付けました。\n下記のリンクから{{minutes}}分以内に新しいパスワードを設定してください。\n\n{{link}}\n\nお心当たりがない場合は、このメールを破棄してください。パスワードは変更されません。',
      },
      en: {
        name: 'Password reset',
        summary: 'Sends the reset link to a user who asked to reset their password.',
        subject: '[Keiyaku] Reset your password',
        body: 'Dear {{userName}},\n\nWe received a request to reset your password.\nSet a new password within {{minutes}} minutes at:\n\n{{link}}\n\nIf you did not ask for this, ignore this mail; your password stays as it is.',
      },
    },
  },
  'user-id-reminder': {
    placeholders: ['loginIds', 'link'],
    required: ['loginIds'],
    secret: [],
    defaults: {
      ja: {
        name: 'ユーザーIDのお知らせ',
        summary: 'ユーザーIDを忘れた方に、メールアドレスに登録されているユーザーIDを送信します。',
        subject: '【Keiyaku】ユーザーIDのお知らせ',
        body: 'このメールアドレスで登録されているユーザーIDは次のとおりです。\n\n{{loginIds}}\n\nログイン: {{link}}',
      },
      en: {
        name: 'User ID reminder',
        summary: 'Sends the user IDs registered with an e-mail address to someone who forgot theirs.',
        subject: '[Keiyaku] Your user ID',
        body: 'These user IDs are registered with this e-mail address:\n\n{{loginIds}}\n\nSign in: {{link}}',
      },
    },
  },
  'email-confirmation': {
    placeholders: ['userName', 'organizationName', 'email', 'expiresAt', 'link'],
    required: ['link'],
    secret: ['link'],
    defaults: {
      ja: {
        name: 'メールアドレスの到達確認',
        summary: '署名の前に、登録されたメールアドレスにメールが届くことを確認するリンクを送信します。',
        subject: '【Keiyaku】メールアドレスの確認をお願いします',
        body: '{{userName}} 様\n\nメールアドレス {{email}} の到達確認のため、下記のリンクを開いてください。確認が済むと署名ができるようになります。リンクの有効期限は{{expiresAt}}です。\n\n{{link}}',
      },
      en: {
        name: 'E-mail arrival confirmation',
        summary: 'Sends a link that confirms mail reaches the registered address; required before signing.',
        subject: '[Keiyaku] Please confirm your e-mail address',
        body: 'Dear {{userName}},\n\nOpen the link below to confirm that mail reaches {{email}}. Once confirmed, you can sign documents. The link expires at {{expiresAt}}.\n\n{{link}}',
      },
    },
  },
  'signing-code': {
    placeholders: ['userName', 'organizationName', 'code', 'documentName', 'expiresAt'],
    required: ['code'],
    secret: ['code'],
    defaults: {
      ja: {
        name: '署名の認証コード',
        summary: '二要素認証つきの署名タスクで、署名に必要な6桁の認証コードを送信します。',
        subject: '【Keiyaku】署名の認証コード',
        body: '{{userName}} 様\n\n書類「{{documentName}}」に署名するための認証コードは {{code}} です。有効期限は{{expiresAt}}です。\nお心当たりがない場合は、このメールを破棄してください。',
      },
      en: {
        name: 'Signing code',
        summary: 'Sends the 6-digit code a two-factor sign task asks for.',
        subject: '[Keiyaku] Your signing code',
        body: 'Dear {{userName}},\n\nYour code to sign "{{documentName}}" is {{code}}. It expires at {{expiresAt}}.\nIf you did not ask for it, ignore this mail.',
      },
    },
  },
  'password-changed': {
    placeholders: ['userName', 'organizationName', 'changedAt'],
    required: [],
    secret: [],
    defaults: {
      ja: {
        name: 'パスワード変更完了',
        summary: 'パスワードが変更されたとき、本人に確認のため送信します。',
        subject: '【Keiyaku】パスワードが変更されました',
        body: '{{userName}} 様\n\nパスワードが変更されました({{changedAt}})。\nお心当たりがない場合は、至急管理者にご連絡ください。',
      },
      en: {
        name: 'Password changed',
        summary: 'Tells a user that their password was changed.',
        subject: '[Keiyaku] Your password was changed',
        body: 'Dear {{userName}},\n\nYour password was changed ({{changedAt}}).\nIf this was not you, contact your administrator at once.',
      },
    },
  },
  'user-invitation': {
    placeholders: ['userName', 'organizationName', 'loginId', 'temporaryPassword', 'expiresAt', 'link'],
    required: ['loginId', 'temporaryPassword', 'link'],
    secret: ['temporaryPassword'],
    defaults: {
      ja: {
        name: 'アカウント登録のお知らせ',
        summary: '管理者がユーザーを登録したとき、ユーザーIDと仮パスワードを本人に送信します。',
        subject: '【Keiyaku】アカウント登録のお知らせ',
        body: '{{userName}} 様\n\n{{organizationName}} の管理者があなたのアカウントを登録しました。\n\nユーザーID: {{loginId}}\n仮パスワード: {{temporaryPassword}}\n\n下記からログインし、初回ログイン時にパスワードを変更してください。仮パスワードの有効期限は{{expiresAt}}です。\n\n{{link}}',
      },
      en: {
        name: 'Account invitation',
        summary: 'Sends the user ID and a temporary password to a user an administrator registered.',
        subject: '[Keiyaku] Your account is ready',
        body: 'Dear {{userName}},\n\nAn administrator of {{organizationName}} registered an account for you.\n\nUser ID: {{loginId}}\nTemporary password: {{temporaryPassword}}\n\nSign in at the link below and change the password at your first sign-in. The temporary password expires at {{expiresAt}}.\n\n{{link}}',
      },
    },
  },
  'task-assigned': {
    placeholders: DOCUMENT_TASK_PLACEHOLDERS,
    required: ['link'],
    // The link carries a mail token that confirms the e-mail arrival (core/modules/signing/mail-link.ts).
    secret: ['link'],
    defaults: {
      ja: {
        name: 'タスクの依頼',
        summary: '書類のタスクが実行できるようになったとき、担当するユーザーに送信します。',
        subject: '【Keiyaku】書類「{{documentName}}」のタスク（{{taskType}}）が届きました',
        body: '{{userName}} 様\n\nワークスペース「{{workspaceName}}」の業務フロー「{{businessFlowName}}」で、書類「{{documentName}}」の{{taskType}}タスクをお願いします。\n\n下記から内容を確認し、タスクを実行してください。\n\n{{link}}',
      },
      en: {
        name: 'Task assigned',
        summary: 'Sent to the users assigned to a document task once it can be executed.',
        subject: '[Keiyaku] A task ({{taskType}}) is waiting for you: {{documentName}}',
        body: 'Dear {{userName}},\n\nIn the business flow "{{businessFlowName}}" of the workspace "{{workspaceName}}", the document "{{documentName}}" is waiting for your {{taskType}} task.\n\nReview it and execute the task at:\n\n{{link}}',
      },
    },
  },
  'document-remanded': {
    placeholders: DOCUMENT_TASK_PLACEHOLDERS,
    required: ['link'],
    // The link carries a mail token that confirms the e-mail arrival (core/modules/signing/mail-link.ts).
    secret: ['link'],
    defaults: {
      ja: {
        name: '書類の差し戻し',
        summary: '書類が差し戻されたとき、戻り先の順番のタスクを担当するユーザーと作成者に送信します。',
        subject: '【Keiyaku】書類「{{documentName}}」が差し戻されました',
        body: '{{userName}} 様\n\n業務フロー「{{businessFlowName}}」の書類「{{documentName}}」が、順番{{toOrder}}のタスクに差し戻されました。\n\n差し戻し理由：\n{{reason}}\n\n下記から内容を確認してください。\n\n{{link}}',
      },
      en: {
        name: 'Document remanded',
        summary: 'Sent to the users of the order a document was remanded to, and to its creator.',
        subject: '[Keiyaku] {{documentName}} was remanded',
        body: 'Dear {{userName}},\n\nThe document "{{documentName}}" of the business flow "{{businessFlowName}}" was remanded to the tasks of order {{toOrder}}.\n\nReason:\n{{reason}}\n\nReview it at:\n\n{{link}}',
      },
    },
  },
  'document-cancelled': {
    placeholders: DOCUMENT_TASK_PLACEHOLDERS,
    required: ['link'],
    secret: [],
    defaults: {
      ja: {
        name: '書類の取り消し',
        summary: '書類が取り消されたとき、業務フローの関係者全員に送信します。',
        subject: '【Keiyaku】書類「{{documentName}}」が取り消されました',
        body: '{{userName}} 様\n\n業務フロー「{{businessFlowName}}」の書類「{{documentName}}」が取り消されました。この書類のタスクは再開できません。\n\n取り消し理由：\n{{reason}}\n\n{{link}}',
      },
      en: {
        name: 'Document cancelled',
        summary: 'Sent to every party of the business flow when one of its documents is cancelled.',
        subject: '[Keiyaku] {{documentName}} was cancelled',
        body: 'Dear {{userName}},\n\nThe document "{{documentName}}" of the business flow "{{businessFlowName}}" was cancelled. Its tasks cannot be resumed.\n\nReason:\n{{reason}}\n\n{{link}}',
      },
    },
  },
  'business-flow-completed': {
    placeholders: DOCUMENT_TASK_PLACEHOLDERS,
    required: ['link'],
    secret: [],
    defaults: {
      ja: {
        name: '業務フローの完了',
        summary: '業務フローが完了したとき、業務フローの関係者全員に送信します。',
        subject: '【Keiyaku】業務フロー「{{businessFlowName}}」が完了しました',
        body: '{{userName}} 様\n\nワークスペース「{{workspaceName}}」の業務フロー「{{businessFlowName}}」が完了しました。\n\n下記から書類を確認できます。\n\n{{link}}',
      },
      en: {
        name: 'Business flow completed',
        summary: 'Sent to every party of a business flow when it is complete.',
        subject: '[Keiyaku] The business flow "{{businessFlowName}}" is complete',
        body: 'Dear {{userName}},\n\nThe business flow "{{businessFlowName}}" of the workspace "{{workspaceName}}" is complete.\n\nSee its documents at:\n\n{{link}}',
      },
    },
  },
  'one-time-task-assigned': {
    placeholders: [...DOCUMENT_TASK_PLACEHOLDERS, 'accessCode', 'expiresAt'],
    required: ['link', 'accessCode'],
    secret: ['link', 'accessCode'],
    defaults: {
      ja: {
        name: 'ワンタイムユーザーへのタスクの依頼',
        summary:
          '書類のタスクが実行できるようになったとき、担当するワンタイムユーザー（ゲスト）に新しい専用リンクとアクセスコードを送信します。',
        subject: '【Keiyaku】書類「{{documentName}}」のタスク（{{taskType}}）が届きました',
        body: '{{userName}} 様\n\n{{organizationName}} の業務フロー「{{businessFlowName}}」で、書類「{{documentName}}」の{{taskType}}タスクをお願いします。\n\n下記のあなた専用のリンクを開き、このメールアドレスに届く認証コードを入力してください。\n\n{{link}}\n\nリンクを開けない場合は、ゲスト用の認証画面で次のアクセスコードを入力してください。\nアクセスコード：{{accessCode}}\n\nリンクとアクセスコードの有効期限は{{expiresAt}}です。以前のメールのリンクとアクセスコードは使えなくなりました。このメールは他の方に転送しないでください。',
      },
      en: {
        name: 'Task assigned to a one-time user',
        summary:
          'Sent to a one-time user (guest) whose task can be executed, with a new personal link and access code.',
        subject: '[Keiyaku] A task ({{taskType}}) is waiting for you: {{documentName}}',
        body: 'Dear {{userName}},\n\nIn the business flow "{{businessFlowName}}" of {{organizationName}}, the document "{{documentName}}" is waiting for your {{taskType}} task.\n\nOpen your personal link below and enter the verification code sent to this address.\n\n{{link}}\n\nIf the link does not open, enter this access code on the guest sign-in page instead.\nAccess code: {{accessCode}}\n\nThe link and the access code expire at {{expiresAt}}; those of earlier mails no longer work. Please do not forward this mail.',
      },
    },
  },
  'one-time-business-flow-completed': {
    placeholders: [...DOCUMENT_TASK_PLACEHOLDERS, 'accessCode', 'expiresAt'],
    required: ['link', 'accessCode'],
    secret: ['link', 'accessCode'],
    defaults: {
      ja: {
        name: 'ワンタイムユーザーへの業務フロー完了の通知',
        summary:
          '業務フローが完了したとき、タスクを担当したワンタイムユーザー（ゲスト）に、署名済みの書類を確認できる新しい専用リンクとアクセスコードを送信します。',
        subject: '【Keiyaku】業務フロー「{{businessFlowName}}」が完了しました',
        body: '{{userName}} 様\n\n{{organizationName}} の業務フロー「{{businessFlowName}}」が完了しました。\n\n下記のあなた専用のリンクを開き、このメールアドレスに届く認証コードを入力すると、署名済みの書類をダウンロードできます。\n\n{{link}}\n\nリンクを開けない場合は、ゲスト用の認証画面で次のアクセスコードを入力してください。\nアクセスコード：{{accessCode}}\n\nリンクとアクセスコードの有効期限は{{expiresAt}}です。以前のメールのリンクとアクセスコードは使えなくなりました。このメールは他の方に転送しないでください。',
      },
      en: {
        name: 'Business flow completed, to a one-time user',
        summary:
          'Sent to the one-time users (guests) who had tasks in a business flow when it is complete, with a new personal link and access code to download the signed documents.',
        subject: '[Keiyaku] The business flow "{{businessFlowName}}" is complete',
        body: 'Dear {{userName}},\n\nThe business flow "{{businessFlowName}}" of {{organizationName}} is complete.\n\nOpen your personal link below and enter the verification code sent to this address to download the signed documents.\n\n{{link}}\n\nIf the link does not open, enter this access code on the guest sign-in page instead.\nAccess code: {{accessCode}}\n\nThe link and the access code expire at {{expiresAt}}; those of earlier mails no longer work. Please do not forward this mail.',
      },
    },
  },
  'one-time-invitation': {
    placeholders: [
      'userName',
      'organizationName',
      'inviterName',
      'workspaceName',
      'businessFlowName',
      'link',
      'accessCode',
      'expiresAt',
    ],
    required: ['link', 'accessCode'],
    secret: ['link', 'accessCode'],
    defaults: {
      ja: {
        name: 'ワンタイムユーザーの招待',
        summary:
          '業務フローにワンタイムユーザー（ゲスト）を招待したとき、本人専用のリンクとアクセスコードを送信します。',
        subject: '【Keiyaku】{{organizationName}}から「{{businessFlowName}}」へのご招待',
        body: '{{userName}} 様\n\n{{organizationName}} の {{inviterName}} 様から、業務フロー「{{businessFlowName}}」に招待されました。\n\n下記のあなた専用のリンクを開き、このメールアドレスに届く認証コードを入力してください。\n\n{{link}}\n\nリンクを開けない場合は、ゲスト用の認証画面で次のアクセスコードを入力してください。\nアクセスコード：{{accessCode}}\n\nリンクとアクセスコードの有効期限は{{expiresAt}}です。このメールは他の方に転送しないでください。',
      },
      en: {
        name: 'One-time user invitation',
        summary: 'Sends a one-time user (guest) invited to a business flow their personal link and access code.',
        subject: '[Keiyaku] {{organizationName}} invites you to "{{businessFlowName}}"',
        body: 'Dear {{userName}},\n\n{{inviterName}} of {{organizationName}} invited you to the business flow "{{businessFlowName}}".\n\nOpen your personal link below and enter the verification code sent to this address.\n\n{{link}}\n\nIf the link does not open, enter this access code on the guest sign-in page instead.\nAccess code: {{accessCode}}\n\nThe link and the access code expire at {{expiresAt}}. Please do not forward this mail.',
      },
    },
  },
  'one-time-auth-code': {
    placeholders: ['userName', 'organizationName', 'businessFlowName', 'code', 'minutes', 'expiresAt'],
    required: ['code'],
    secret: ['code'],
    defaults: {
      ja: {
        name: 'ワンタイムユーザーの認証コード',
        summary: 'ワンタイムユーザーがメールアドレスを確認するための6桁の認証コードを送信します。',
        subject: '【Keiyaku】認証コードのお知らせ',
        body: '{{userName}} 様\n\n業務フロー「{{businessFlowName}}」に参加するための認証コードは {{code}} です。{{minutes}}分以内（{{expiresAt}}まで）に入力してください。\nお心当たりがない場合は、このメールを破棄してください。',
      },
      en: {
        name: 'One-time user verification code',
        summary: 'Sends the 6-digit code a one-time user enters to prove their e-mail address.',
        subject: '[Keiyaku] Your verification code',
        body: 'Dear {{userName}},\n\nYour code to join the business flow "{{businessFlowName}}" is {{code}}. Enter it within {{minutes}} minutes (by {{expiresAt}}).\nIf you did not ask for it, ignore this mail.',
      },
    },
  },
};

/**
 * Parameter names callers used before templates existed, mapped to the placeholder they fill. New callers pass the
 * placeholder names themselves.
 */
const LEGACY_PARAMS: Record<string, string> = { name: 'userName', organization: 'organizationName', at: 'changedAt' };

/** A caller's parameters keyed by placeholder name (legacy names translated, placeholder names win). */
export function placeholderValues(params: Record<string, string>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    const name = LEGACY_PARAMS[key];
    if (name && params[name] === undefined) values[name] = value;
  }
  return { ...values, ...params };
}

/** A time as the reader reads it: Japan time in Japanese (2026年11月25日 21:08), with its zone named in English. */
const MAIL_TIME_FORMATS: Record<Locale, Intl.DateTimeFormat> = {
  ja: new Intl.DateTimeFormat('ja-JP', {
    timeZone: 'Asia/Tokyo',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }),
  en: new Intl.DateTimeFormat('en-US', {
    timeZone: 'Asia/Tokyo',
    dateStyle: 'long',
    timeStyle: 'short',
    hourCycle: 'h23',
  }),
};
const MAIL_TIME_SUFFIX: Record<Locale, string> = { ja: '', en: ' JST (UTC+9)' };
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A placeholder value that is a timestamp (callers pass `toISOString()`: expiresAt, changedAt) written for the
 * reader; any other value as it is.
 */
export function mailTime(value: string, locale: Locale): string {
  if (!ISO_TIMESTAMP.test(value)) return value;
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) return value;
  return MAIL_TIME_FORMATS[locale].format(time) + MAIL_TIME_SUFFIX[locale];
}

export function isMailKind(value: string): value is MailKind {
  return (MAIL_KINDS as readonly string[]).includes(value);
}

/**
 * Subject and body of one mail in the recipient's language: the given template (an organization's own) or the
 * built-in one, placeholders filled with the values as they are, and the signature appended.
 */
export function composeMail(
  kind: MailKind,
  locale: Locale,
  params: Record<string, string>,
  template: Pick<MailTemplateText, 'subject' | 'body'> = MAIL_KIND_DEFINITIONS[kind].defaults[locale],
) {
  const values = Object.fromEntries(
    Object.entries(placeholderValues(params)).map(([name, value]) => [name, mailTime(value, locale)]),
  );
  return {
    // One line without stray spaces, whatever the values (an empty one leaves none behind).
    subject: renderPlaceholders(template.subject, values).replace(/\s+/g, ' ').trim(),
    text: renderPlaceholders(template.body, values) + SIGNATURE[locale],
  };
}
