import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageImage, PageSteps } from '../pdf-controls.tsx';
import { usePageCanvas } from '../pdf-document.ts';
import {
  defaultBox,
  type PageMapping,
  pageMapping,
  type Placement,
  type PlacementKind,
  toPdfRect,
  toScreenBox,
} from './placement.ts';
import { FieldBox, FieldList } from './field-box.tsx';
import { FieldFillDialog } from './field-fill-dialog.tsx';
import { clearField, fillField, fillingOf, ownPlacements, type SignerField } from './fields.ts';
import { HandwritingDialog } from './handwriting-dialog.tsx';
import './signing-parts.css';
import { PlacementBox } from './placement-box.tsx';
import { PlacementContent } from './placement-content.tsx';
import { PlacementTools, type SealTool } from './placement-tools.tsx';

let placementCounter = 0;
const newKey = () => `placement-${(placementCounter += 1)}`;

/** A new box, nudged down and right past the boxes already on the page so it never hides one exactly. */
function newRect(kind: PlacementKind, mapping: PageMapping, onPage: number, aspect?: number) {
  const box = defaultBox(kind, mapping, aspect);
  const shift = (onPage % 5) * 12;
  return toPdfRect({ ...box, left: box.left + shift, top: box.top + shift }, mapping);
}

function PlacedList(props: {
  placements: Placement[];
  onShow: (page: number) => void;
  onRemove: (key: string) => void;
}) {
  const { t } = useTranslation('signing');
  const label = (p: Placement) => t('placements.boxLabel', { kind: t(`placements.kinds.${p.kind}`), page: p.page });
  return (
    <section aria-labelledby="placed-title" className="placed-list">
      <h3 id="placed-title">{t('placements.listTitle')}</h3>
      {props.placements.length === 0 ? (
        <p className="muted">{t('placements.empty')}</p>
      ) : (
        <ul className="plain-list">
          {props.placements.map((p) => (
            <li key={p.key}>
              <button type="button" className="button small" onClick={() => props.onShow(p.page)}>
                {label(p)}
              </button>
              <button
                type="button"
                className="button small danger"
                aria-label={t('placements.removeLabel', { label: label(p) })}
                onClick={() => props.onRemove(p.key)}
              >
                {t('placements.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The document's pages, one at a time at the frame's width, with the placements of that page as boxes to drag,
 * and the tools that add them. Placements are kept in PDF points, so they stay put when the width changes.
 * The fields the sender placed for the signer are drawn too: pressing one fills it (its box cannot be moved), and
 * the signer's own placements are offered only when the sender allows them (`allowOwn`).
 */
export function PlacementBoard(props: {
  pdf: PDFDocumentProxy;
  title: string;
  placements: Placement[];
  onChange: (placements: Placement[]) => void;
  /** The seal part of the tools: the member's registered seal images, or the guest's upload. */
  sealTool: SealTool;
  /** The fields the sender placed for this signer. */
  fields?: SignerField[];
  /** The signer may add placements of their own (true unless the sender said otherwise). */
  allowOwn?: boolean;
}) {
  const { t } = useTranslation('signing');
  const fields = props.fields ?? [];
  const allowOwn = props.allowOwn ?? true;
  const [pageNumber, setPageNumber] = useState(1);
  /** The handwriting pad, open for the signer's own placement (null field) or for a field. */
  const [drawing, setDrawing] = useState<{ field: SignerField | null } | null>(null);
  const [filling, setFilling] = useState<SignerField | null>(null);
  const { frame, canvas, drawn, rendered } = usePageCanvas(props.pdf, pageNumber, null);
  const mapping = useMemo(() => drawn && pageMapping(drawn.page, drawn.scale), [drawn]);
  const hintId = useId();
  const pages = props.pdf.numPages;
  const own = ownPlacements(props.placements);
  const onPage = own.filter((p) => p.page === pageNumber);
  const fieldsOnPage = fields.filter((field) => field.page === pageNumber);

  /** Shows the field's page and opens what fills it (the pad at once for a handwritten field). */
  const openField = (field: SignerField) => {
    setPageNumber(field.page);
    if (field.kind === 'handwritten') setDrawing({ field });
    else setFilling(field);
  };

  const add = (kind: PlacementKind, content: Partial<Placement>, aspect?: number) => {
    if (!mapping) return;
    const rect = newRect(kind, mapping, onPage.length, aspect);
    props.onChange([...props.placements, { key: newKey(), kind, page: pageNumber, rect, ...content }]);
  };
  const update = (key: string, patch: Partial<Placement>) =>
    props.onChange(props.placements.map((p) => (p.key === key ? { ...p, ...patch } : p)));
  const remove = (key: string) => props.onChange(props.placements.filter((p) => p.key !== key));

  return (
    <div className="split-layout">
      <div className="placement-page">
        <PageSteps namespace="signing" page={pageNumber} pages={pages} onPage={setPageNumber} />
        {allowOwn && (
          <p id={hintId} className="hint">
            {t('placements.keyboardHint')}
          </p>
        )}
        <div ref={frame} className="sign-frame" role="region" aria-label={t('viewer.frame', { title: props.title })}>
          <div className="sign-sheet" style={mapping ? { width: mapping.width, height: mapping.height } : undefined}>
            <PageImage
              namespace="signing"
              canvas={canvas}
              title={props.title}
              page={pageNumber}
              pages={pages}
              rendered={rendered}
            />
            {mapping &&
              fieldsOnPage.map((field) => (
                <FieldBox
                  key={field.id}
                  field={field}
                  mapping={mapping}
                  filling={fillingOf(props.placements, field.id)}
                  onOpen={() => openField(field)}
                  onClear={() => props.onChange(clearField(props.placements, field.id))}
                />
              ))}
            {mapping &&
              onPage.map((placement) => {
                const label = t('placements.boxLabel', {
                  kind: t(`placements.kinds.${placement.kind}`),
                  page: placement.page,
                });
                return (
                  <PlacementBox
                    key={placement.key}
                    placement={placement}
                    mapping={mapping}
                    label={label}
                    hintId={hintId}
                    onChange={(rect) => update(placement.key, { rect })}
                    onRemove={() => remove(placement.key)}
                  >
                    <PlacementContent placement={placement} height={toScreenBox(placement.rect, mapping).height} />
                  </PlacementBox>
                );
              })}
          </div>
        </div>
      </div>
      <div className="placement-side">
        {fields.length > 0 && <FieldList fields={fields} placements={props.placements} onOpen={openField} />}
        {allowOwn ? (
          <>
            {fields.length > 0 && <h3 className="placement-own-title">{t('fields.ownTitle')}</h3>}
            <PlacementTools
              count={props.placements.length}
              ready={Boolean(mapping)}
              sealTool={props.sealTool}
              onAddSeal={(seal, aspect) => add('seal', seal, aspect)}
              onOpenHandwriting={() => setDrawing({ field: null })}
              onAddText={(lines) => add('text', { lines })}
            />
            <PlacedList placements={own} onShow={setPageNumber} onRemove={remove} />
          </>
        ) : (
          <p className="notice">{t('fields.ownNotAllowed')}</p>
        )}
      </div>
      <FieldFillDialog
        field={filling}
        filling={filling ? fillingOf(props.placements, filling.id) : undefined}
        sealTool={props.sealTool}
        onFill={(content) => {
          if (filling) props.onChange(fillField(props.placements, filling, content));
          setFilling(null);
        }}
        onDraw={() => {
          const field = filling;
          setFilling(null);
          setDrawing({ field });
        }}
        onClose={() => setFilling(null)}
      />
      <HandwritingDialog
        open={drawing !== null}
        onClose={() => setDrawing(null)}
        onPlace={(image) => {
          const field = drawing?.field;
          if (field) props.onChange(fillField(props.placements, field, { kind: 'handwritten', image }));
          else add('handwritten', { image });
          setDrawing(null);
        }}
      />
    </div>
  );
}
