import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import { useOpenQrCode } from '../api/open-qr-code.ts';
import { formatRemaining, QR_VALIDITY_MINUTES, remainingMs } from '../countdown.ts';

/** The QR code as an image: the server's SVG in a data URL, so no markup of it enters the page. */
const svgSource = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

/** Ticks once a second while `running`, returning the member's clock. */
function useNow(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    if (!running) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [running]);
  return now;
}

/**
 * The QR screen, over the whole window: opening it asks the server for a new QR code (the one shown before dies),
 * shows it large with its URL and a countdown to its expiry, and once expired says so and offers to reopen it.
 */
export function QrScreen(props: { invitationId: string; who: string | null; onClose: () => void }) {
  const { t, i18n } = useTranslation('oneTimeInvitations');
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const open = useOpenQrCode();
  const { mutate } = open;
  const opened = useRef<string | null>(null);
  const qr = open.data?.attributes;
  const now = useNow(Boolean(qr));
  const left = qr ? remainingMs(qr.expiresAt, now) : 0;
  const expired = Boolean(qr) && left <= 0;

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    // Once per invitation, even when an effect runs twice: every open makes a new QR code and kills the last one.
    if (opened.current === props.invitationId) return;
    opened.current = props.invitationId;
    mutate(props.invitationId);
  }, [props.invitationId, mutate]);

  const reopen = () => mutate(props.invitationId);
  const until = qr ? japanDateTimeFormat(i18n.language).format(new Date(qr.expiresAt)) : '';

  return (
    <dialog
      ref={ref}
      className="qr-screen"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        props.onClose();
      }}
    >
      <div className="qr-screen-body">
        <h2 id={titleId}>{t('qr.title')}</h2>
        {props.who && <p className="qr-for">{t('qr.for', { who: props.who })}</p>}
        <ApiErrorNotice error={open.error} />
        {open.isPending && (
          <p role="status" className="muted">
            {t('qr.opening')}
          </p>
        )}
        {qr && !open.isPending && (
          <>
            {expired ? (
              <div className="qr-expired" role="alert">
                <p>{t('qr.expired')}</p>
              </div>
            ) : (
              <img className="qr-image" src={svgSource(qr.svg)} alt={t('qr.imageAlt')} />
            )}
            <p className="qr-countdown" role="timer" aria-live="off">
              {expired ? t('qr.expiresAt', { time: until }) : t('qr.remaining', { time: formatRemaining(left) })}
            </p>
          </>
        )}
        <div className="dialog-actions">
          {(expired || open.isError) && (
            <button type="button" className="button primary" disabled={open.isPending} onClick={reopen}>
              {t('qr.reopen')}
            </button>
          )}
          <button type="button" className="button" onClick={props.onClose}>
            {t('qr.close')}
          </button>
        </div>
        {qr && !open.isPending && !expired && (
          <div className="qr-url">
            <span id={`${titleId}-url`}>{t('qr.url')}</span>
            <output aria-labelledby={`${titleId}-url`}>{qr.url}</output>
          </div>
        )}
        <p className="hint">{t('qr.instructions')}</p>
        <p className="hint">{t('qr.validity', { minutes: QR_VALIDITY_MINUTES })}</p>
      </div>
    </dialog>
  );
}
