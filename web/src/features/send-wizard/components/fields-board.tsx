import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageImage, PageSteps } from '../../../components/pdf-controls.tsx';
import { usePageCanvas } from '../../../components/pdf-document.ts';
import { PlacementBox } from '../../../components/signing/placement-box.tsx';
import {
  clampBox,
  pageMapping,
  type PlacementKind,
  toPdfRect,
  toScreenBox,
} from '../../../components/signing/placement.ts';
import '../../../components/signing/signing-parts.css';
import { type FieldKind, newKey, type WizardField } from '../wizard-state.ts';

/** A new box's size in PDF points, by kind. */
const SIZE: Record<FieldKind, { width: number; height: number }> = {
  signature: { width: 150, height: 50 },
  seal: { width: 60, height: 60 },
  handwritten: { width: 150, height: 60 },
  text: { width: 120, height: 40 },
};

/** The placement parts know seal, handwritten and text: a signature box looks like a handwritten one. */
const LOOK: Record<FieldKind, PlacementKind> = {
  signature: 'handwritten',
  seal: 'seal',
  handwritten: 'handwritten',
  text: 'text',
};

export interface BoardSigner {
  key: string;
  name: string;
  shortName: string;
  colour: number;
}

/**
 * One page of the document with every signer's boxes: the chosen signer's boxes can be dragged and resized (the
 * placement box's pointer and keyboard handling), the others are shown for orientation. New boxes start in the
 * lower part of the page, one row per signer, so boxes of different signers do not cover each other.
 */
export function FieldsBoard(props: {
  pdf: PDFDocumentProxy;
  title: string;
  signers: BoardSigner[];
  activeKey: string;
  fields: Record<string, WizardField[]>;
  onFields: (signerKey: string, fields: WizardField[]) => void;
}) {
  const { t } = useTranslation('sendWizard');
  const [pageNumber, setPageNumber] = useState(1);
  const { frame, canvas, drawn, rendered } = usePageCanvas(props.pdf, pageNumber, null);
  const mapping = useMemo(() => drawn && pageMapping(drawn.page, drawn.scale), [drawn]);
  const hintId = useId();
  const active = props.signers.find((s) => s.key === props.activeKey);
  const activeFields = props.fields[props.activeKey] ?? [];

  const add = (kind: FieldKind) => {
    if (!mapping || !active) return;
    const [x0, y0] = mapping.toScreen(0, 0);
    const [x1, y1] = mapping.toScreen(SIZE[kind].width, SIZE[kind].height);
    const width = Math.abs(x1 - x0);
    const height = Math.abs(y1 - y0);
    const row = props.signers.indexOf(active);
    const own = activeFields.filter((f) => f.page === pageNumber).length;
    const box = clampBox(
      {
        left: mapping.width * 0.08 + own * (width + 8),
        top: mapping.height * 0.62 + row * (height + 10),
        width,
        height,
      },
      mapping,
    );
    props.onFields(active.key, [
      ...activeFields,
      { key: newKey('field'), kind, page: pageNumber, rect: toPdfRect(box, mapping) },
    ]);
  };

  return (
    <div className="wizard-board">
      <div className="wizard-kinds" role="group" aria-label={t('fields.addLabel', { name: active?.name ?? '' })}>
        {(['signature', 'seal', 'handwritten', 'text'] as const).map((kind) => (
          <button key={kind} type="button" className="button" disabled={!mapping || !active} onClick={() => add(kind)}>
            {t('fields.add', { kind: t(`fields.kinds.${kind}`) })}
          </button>
        ))}
      </div>
      <PageSteps namespace="sendWizard" page={pageNumber} pages={props.pdf.numPages} onPage={setPageNumber} />
      <p id={hintId} className="hint">
        {t('fields.keyboardHint')}
      </p>
      <div ref={frame} className="sign-frame" role="region" aria-label={t('viewer.frame', { title: props.title })}>
        <div className="sign-sheet" style={mapping ? { width: mapping.width, height: mapping.height } : undefined}>
          <PageImage
            namespace="sendWizard"
            canvas={canvas}
            title={props.title}
            page={pageNumber}
            pages={props.pdf.numPages}
            rendered={rendered}
          />
          {mapping &&
            props.signers.flatMap((signer) =>
              (props.fields[signer.key] ?? [])
                .filter((field) => field.page === pageNumber)
                .map((field) => {
                  const label = t('fields.boxLabel', {
                    kind: t(`fields.kinds.${field.kind}`),
                    name: signer.name,
                    page: field.page,
                  });
                  const content = (
                    <span className={`wizard-box-label signer-colour-${signer.colour}`}>
                      {t(`fields.kinds.${field.kind}`)}
                      <br />
                      {signer.shortName}
                    </span>
                  );
                  if (signer.key !== props.activeKey) {
                    const box = toScreenBox(field.rect, mapping);
                    return (
                      <div
                        key={field.key}
                        className={`wizard-box-other signer-colour-${signer.colour}`}
                        style={{ left: box.left, top: box.top, width: box.width, height: box.height }}
                        aria-label={label}
                        role="img"
                      >
                        {content}
                      </div>
                    );
                  }
                  const list = props.fields[signer.key] ?? [];
                  return (
                    <div key={field.key} className={`wizard-box signer-colour-${signer.colour}`}>
                      <PlacementBox
                        placement={{ key: field.key, kind: LOOK[field.kind], page: field.page, rect: field.rect }}
                        mapping={mapping}
                        label={label}
                        hintId={hintId}
                        onChange={(rect) =>
                          props.onFields(
                            signer.key,
                            list.map((f) => (f.key === field.key ? { ...f, rect } : f)),
                          )
                        }
                        onRemove={() =>
                          props.onFields(
                            signer.key,
                            list.filter((f) => f.key !== field.key),
                          )
                        }
                      >
                        {content}
                      </PlacementBox>
                    </div>
                  );
                }),
            )}
        </div>
      </div>
    </div>
  );
}
