import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReasonDialog } from '../../../components/reason-dialog.tsx';

/** The orders a task of order `order` can send the document back to (1 … order − 1). */
const earlierOrders = (order: number) => Array.from({ length: Math.max(0, order - 1) }, (_, index) => index + 1);

/** Remanding the document: a required reason and, past order 2, the order to send it back to. */
export function RemandDialog(props: {
  open: boolean;
  order: number;
  onConfirm: (reason: string, toOrder: number | undefined) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation('oneTime');
  const orderId = useId();
  const [toOrder, setToOrder] = useState(1);
  const orders = earlierOrders(props.order);

  useEffect(() => {
    if (props.open) setToOrder(1);
  }, [props.open]);

  return (
    <ReasonDialog
      open={props.open}
      title={t('actions.remandTitle')}
      reasonLabel={t('actions.remandReason')}
      requiredText={t('actions.reasonRequired')}
      cancelLabel={t('actions.cancel')}
      confirmLabel={t('actions.remand')}
      onClose={props.onClose}
      onConfirm={(reason) => props.onConfirm(reason, orders.length > 1 ? toOrder : undefined)}
    >
      {orders.length > 1 && (
        <div className="field">
          <label htmlFor={orderId}>{t('actions.remandTo')}</label>
          <select id={orderId} value={toOrder} onChange={(event) => setToOrder(Number(event.target.value))}>
            {orders.map((order) => (
              <option key={order} value={order}>
                {t('actions.remandToOption', { order })}
              </option>
            ))}
          </select>
        </div>
      )}
    </ReasonDialog>
  );
}
