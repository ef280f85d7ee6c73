import { useTranslation } from 'react-i18next';
import { WIZARD_STEPS, type WizardStep } from '../search.ts';

/** ① 書類 ② 宛先 ③ 署名欄 ④ 確認: where the user is; once the draft exists every step can be opened directly. */
export function Stepper(props: { current: WizardStep; enabled: boolean; onGo: (step: WizardStep) => void }) {
  const { t } = useTranslation('sendWizard');
  const currentIndex = WIZARD_STEPS.indexOf(props.current);
  return (
    <nav aria-label={t('stepsLabel')} className="wizard-steps">
      <ol>
        {WIZARD_STEPS.map((step, index) => (
          <li key={step} className={index === currentIndex ? 'current' : index < currentIndex ? 'done' : undefined}>
            <button
              type="button"
              className="wizard-step"
              aria-current={index === currentIndex ? 'step' : undefined}
              disabled={!props.enabled || index === currentIndex}
              onClick={() => props.onGo(step)}
            >
              <span className="wizard-step-number" aria-hidden="true">
                {index + 1}
              </span>
              {t(`steps.${step}`)}
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}
