import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSealImageContent, useSealImages } from '../../../api/seal-images.ts';
import { FormField } from '../../../components/form-field.tsx';
import { useObjectUrl } from '../../../components/object-url.ts';
import { SelectField } from '../../../components/select-field.tsx';
import { MAX_LINE_LENGTH, MAX_PLACEMENTS, MAX_TEXT_LINES, textLines, textProblem } from '../placement.ts';

function SealThumbnail({ sealImageId, name }: { sealImageId: string; name: string }) {
  const content = useSealImageContent(sealImageId);
  const url = useObjectUrl(content.data);
  return url ? <img className="seal-thumbnail" src={url} alt={name} /> : null;
}

/** Choose one of the caller's seal images and put it on the page. */
function SealTool(props: { disabled: boolean; onAdd: (sealImageId: string, aspect: number) => void }) {
  const { t } = useTranslation('signing');
  const seals = useSealImages();
  const images = seals.data?.data ?? [];
  const [chosen, setChosen] = useState('');
  const selected = images.find((image) => image.id === chosen) ?? images[0];
  if (seals.isPending) return <p className="muted">{t('placements.sealLoading')}</p>;
  if (images.length === 0) {
    return (
      <div className="notice">
        <p>{t('placements.sealNone')}</p>
        <Link to="/organizations/settings/seal-images">{t('placements.sealManage')}</Link>
      </div>
    );
  }
  return (
    <div className="placement-tool">
      <SelectField
        id="sign-seal-image"
        label={t('placements.sealSelect')}
        value={selected?.id ?? ''}
        options={images.map((image) => ({ value: image.id, label: image.attributes.name }))}
        onChange={(event) => setChosen(event.target.value)}
      />
      {selected && <SealThumbnail sealImageId={selected.id} name={selected.attributes.name} />}
      <button
        type="button"
        className="button"
        disabled={props.disabled || !selected}
        onClick={() => selected && props.onAdd(selected.id, selected.attributes.width / selected.attributes.height)}
      >
        {t('placements.addSeal')}
      </button>
    </div>
  );
}

/** Up to three lines of up to seven characters, put on the page as one block. */
function TextTool(props: { disabled: boolean; onAdd: (lines: string[]) => void }) {
  const { t } = useTranslation('signing');
  const [lines, setLines] = useState<string[]>(Array.from({ length: MAX_TEXT_LINES }, () => ''));
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
      <legend>{t('placements.text')}</legend>
      <p id="sign-text-hint" className="hint">
        {t('placements.textHint', { lines: MAX_TEXT_LINES, length: MAX_LINE_LENGTH })}
      </p>
      {lines.map((line, index) => (
        <FormField
          key={index}
          id={`sign-text-${index + 1}`}
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
        {t('placements.addText')}
      </button>
    </fieldset>
  );
}

/** The tools that add placements: a seal image, a handwritten signature (in a dialog) and a text block. */
export function PlacementTools(props: {
  count: number;
  ready: boolean;
  onAddSeal: (sealImageId: string, aspect: number) => void;
  onOpenHandwriting: () => void;
  onAddText: (lines: string[]) => void;
}) {
  const { t } = useTranslation('signing');
  const full = props.count >= MAX_PLACEMENTS;
  const disabled = full || !props.ready;
  return (
    <div className="placement-tools">
      {full && (
        <p role="status" className="notice">
          {t('placements.limit', { max: MAX_PLACEMENTS })}
        </p>
      )}
      <SealTool disabled={disabled} onAdd={props.onAddSeal} />
      <div className="placement-tool">
        <button type="button" className="button" disabled={disabled} onClick={props.onOpenHandwriting}>
          {t('placements.addHandwritten')}
        </button>
      </div>
      <TextTool disabled={disabled} onAdd={props.onAddText} />
    </div>
  );
}
