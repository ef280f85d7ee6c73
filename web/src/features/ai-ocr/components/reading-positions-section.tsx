import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { OpenedPdf } from '../../../components/pdf-controls.tsx';
import { usePlanFeature } from '../../../components/plan-gate.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { type DocumentProperty, useDocumentProperties } from '../api/document-properties.ts';
import {
  type ReadingPosition,
  type TemplateSample,
  useTemplateSampleFile,
  useUploadTemplateSample,
} from '../api/template-sample.ts';
import type { PointRect } from '../geometry.ts';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import { PositionBoard } from './position-board.tsx';
import { PositionList } from './position-list.tsx';
import '../ai-ocr.css';

registerCatalogue('aiOcr', { ja, en });

type DocumentTemplate = components['schemas']['DocumentTemplate'];

/** What the template form gives the section (web/src/routes composes the two features). */
export interface ReadingPositionsProps {
  /** Null while the template is being created: the sample is uploaded once it exists. */
  templateId: string | null;
  sample: TemplateSample | null;
  value: ReadingPosition[];
  onChange: (positions: ReadingPosition[]) => void;
  /** The template after a sample upload (its new sample and lockVersion). */
  onSampleStored: (template: DocumentTemplate) => void;
  /** The form's messages about the positions (browser checks and the server's refusals). */
  errors: string[];
}

/** The property a new box reads: the first one no position reads yet. */
const unusedProperty = (properties: DocumentProperty[], positions: ReadingPosition[]) =>
  properties.find((property) => !positions.some((position) => position.propertyId === property.id))?.id ?? '';

function SampleUpload(props: {
  templateId: string;
  sample: TemplateSample | null;
  onStored: ReadingPositionsProps['onSampleStored'];
}) {
  const { t } = useTranslation('aiOcr');
  const upload = useUploadTemplateSample();
  const id = useId();
  return (
    <div className="reading-sample">
      <div className="field">
        <label htmlFor={id}>{props.sample ? t('editor.replaceSample') : t('editor.uploadSample')}</label>
        <p id={`${id}-hint`} className="hint">
          {props.sample
            ? t('editor.sampleStored', { name: props.sample.fileName, pages: props.sample.pageCount ?? '—' })
            : t('editor.sampleHint')}
        </p>
        <input
          id={id}
          type="file"
          accept="application/pdf,.pdf"
          aria-describedby={`${id}-hint`}
          disabled={upload.isPending}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) upload.mutate({ documentTemplateId: props.templateId, file }, { onSuccess: props.onStored });
          }}
        />
      </div>
      {upload.isPending && (
        <p role="status" className="muted">
          {t('editor.uploading')}
        </p>
      )}
      <ApiErrorNotice error={upload.error} action={t('editor.uploadAction')} />
    </div>
  );
}

/**
 * The reading positions of a document template: the sample PDF's pages, on which the administrator draws a box
 * for each document-scope property to read, and the same boxes as fields. Shown to everyone editing templates; an
 * organization without the AI-OCR option is told that reading needs it.
 */
export function ReadingPositionsSection(props: ReadingPositionsProps) {
  const { t } = useTranslation('aiOcr');
  const aiOcr = usePlanFeature('aiOcr');
  const properties = useDocumentProperties().data ?? [];
  const file = useTemplateSampleFile(props.templateId, props.sample);
  const [pageNumber, setPageNumber] = useState(1);
  const [selected, setSelected] = useState<number | null>(null);
  const [redrawing, setRedrawing] = useState<number | null>(null);
  const positions = props.value;
  const nameOf = (position: ReadingPosition) =>
    properties.find((p) => p.id === position.propertyId)?.attributes.name ?? t('editor.noProperty');

  const change = (index: number, patch: Partial<ReadingPosition>) =>
    props.onChange(positions.map((position, i) => (i === index ? { ...position, ...patch } : position)));
  const remove = (index: number) => {
    props.onChange(positions.filter((_, i) => i !== index));
    setSelected(null);
    setRedrawing(null);
  };
  const draw = (page: number, rect: PointRect) => {
    if (redrawing !== null) {
      change(redrawing, { page, ...rect });
      setSelected(redrawing);
      setRedrawing(null);
      return;
    }
    props.onChange([...positions, { propertyId: unusedProperty(properties, positions), page, ...rect, hint: null }]);
    setSelected(positions.length);
  };
  const select = (index: number | null) => {
    setSelected(index);
    const page = index === null ? undefined : positions[index]?.page;
    if (page !== undefined && page !== pageNumber) setPageNumber(page);
  };

  return (
    <section className="reading-positions" aria-labelledby="reading-positions-title" data-testid="reading-positions">
      <h3 id="reading-positions-title">{t('editor.title')}</h3>
      <p className="hint">{t('editor.intro')}</p>
      {!aiOcr.available && (
        <p className="notice" role="status">
          {t('editor.optionRequired')}
        </p>
      )}
      {props.templateId ? (
        <SampleUpload templateId={props.templateId} sample={props.sample} onStored={props.onSampleStored} />
      ) : (
        <p className="muted">{t('editor.saveFirst')}</p>
      )}
      {props.errors.length > 0 && (
        <div className="field-error" role="alert">
          {props.errors.map((error) => (
            <p key={error}>{error}</p>
          ))}
        </div>
      )}
      {redrawing !== null && (
        <p className="notice" role="status">
          {t('editor.redrawing', { name: positions[redrawing] ? nameOf(positions[redrawing]) : '' })}
        </p>
      )}
      <div className="reading-layout">
        {props.sample && file.error && <ApiErrorNotice error={file.error} />}
        {props.sample && file.isPending && (
          <p role="status" className="muted">
            {t('viewer.loading')}
          </p>
        )}
        {file.data && (
          <OpenedPdf namespace="aiOcr" file={file.data}>
            {(pdf) => (
              <PositionBoard
                pdf={pdf}
                title={props.sample?.fileName ?? ''}
                pageNumber={Math.min(pageNumber, pdf.numPages)}
                onPage={setPageNumber}
                positions={positions}
                selected={selected}
                labelOf={nameOf}
                onSelect={select}
                onDraw={draw}
                onChange={(index, rect) => change(index, rect)}
                onRemove={remove}
              />
            )}
          </OpenedPdf>
        )}
        <PositionList
          positions={positions}
          properties={properties}
          pages={props.sample?.pageCount ?? 2000}
          selected={selected}
          redrawing={redrawing}
          onSelect={select}
          onChange={change}
          onRedraw={setRedrawing}
          onRemove={remove}
        />
      </div>
    </section>
  );
}
