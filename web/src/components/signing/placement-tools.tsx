import { type ComponentType, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormField } from '../form-field.tsx';
import { MAX_LINE_LENGTH, MAX_PLACEMENTS, MAX_TEXT_LINES, textLines, textProblem } from './placement.ts';

/**
 * Up to three lines of up to seven characters, put on the page as one block (or into a field: `initial` holds the
 * field's lines so far, `submitLabel` names the button).
 */
export function TextTool(props: {
  disabled: boolean;
  onAdd: (lines: string[]) => void;
  initial?: string[];
  legend?: string;
  submitLabel?: string;
}) {
  const { t } = useTranslation('signing');
  const id = useId();
  const [lines, setLines] = useState<string[]>(() =>
    Array.from({ length: MAX_TEXT_LINES }, (_, index) => props.initial?.[index] ?? ''),
  );
  const [problem, setProblem] = useState<ReturnType<typeof textProblem>>(null);
  const add = () => {
    const found = textProblem(lines);
    setProblem(found);
    if (found) return;
    props.onAdd(textLines(lines));
    setLines(lines.map(() => ''));
  };
  return (
    <fieldset className="placement-tool">
      <legend>{props.legend ?? t('placements.text')}</legend>
      <p id={`${id}-hint`} className="hint">
        {t('placements.textHint', { lines: MAX_TEXT_LINES, length: MAX_LINE_LENGTH })}
      </p>
      {lines.map((line, index) => (
        <FormField
          key={index}
          id={`${id}-line-${index + 1}`}
          label={t('placements.textLine', { line: index + 1 })}
          value={line}
          maxLength={MAX_LINE_LENGTH * 2}
          autoComplete="off"
          errors={problem === 'textTooLong' && [...line].length > MAX_LINE_LENGTH ? [t('placements.textTooLong')] : []}
          onChange={(event) => {
            setLines(lines.map((value, i) => (i === index ? event.target.value : value)));
            setProblem(null);
          }}
        />
      ))}
      {problem && (
        <p role="alert" className="field-error">
          {t(`placements.${problem}`)}
        </p>
      )}
      <button type="button" className="button" disabled={props.disabled} onClick={add}>
        {props.submitLabel ?? t('placements.addText')}
      </button>
    </fieldset>
  );
}

/** What a seal tool adds: a member's registered seal image, or an image uploaded on the spot (a data URL). */
export type SealContent = { sealImageId: string } | { image: string };

/**
 * The seal part of the tools, given by the screen: members choose one of their registered seal images, guests
 * upload one on the spot. `onAdd` takes the seal and its image's width/height ratio; `addLabel` names its button when
 * the seal goes into a field rather than onto the page.
 */
export type SealTool = ComponentType<{
  disabled: boolean;
  onAdd: (seal: SealContent, aspect: number) => void;
  addLabel?: string;
}>;

/** The tools that add placements: a seal image, a handwritten signature (in a dialog) and a text block. */
export function PlacementTools(props: {
  count: number;
  ready: boolean;
  sealTool: SealTool;
  onAddSeal: (seal: SealContent, aspect: number) => void;
  onOpenHandwriting: () => void;
  onAddText: (lines: string[]) => void;
}) {
  const { t } = useTranslation('signing');
  const Seal = props.sealTool;
  const full = props.count >= MAX_PLACEMENTS;
  const disabled = full || !props.ready;
  return (
    <div className="placement-tools">
      {full && (
        <p role="status" className="notice">
          {t('placements.limit', { max: MAX_PLACEMENTS })}
        </p>
      )}
      <Seal disabled={disabled} onAdd={props.onAddSeal} />
      <div className="placement-tool">
        <button type="button" className="button" disabled={disabled} onClick={props.onOpenHandwriting}>
          {t('placements.addHandwritten')}
        </button>
      </div>
      <TextTool disabled={disabled} onAdd={props.onAddText} />
    </div>
  );
}
