/*
 * What each revision after a signed one changed, classified by what the changed objects are in the document
 * (ISO 32000-2 §12.8.2.2 DocMDP, and the incremental-saving and shadow attacks of the PDF-Insecurity research):
 * validation data, document timestamps, new signatures with their fields and widgets, form filling, annotations and
 * metadata may follow a signature; page content, page resources (fonts, images, form XObjects), the page tree, a
 * page's own attributes, the catalogue, the form dictionary and existing signatures may not.
 *
 * The changed objects are exactly those whose cross-reference entry differs between two revisions (a viewer sees
 * the new object, whatever the old bytes say). Each is classified by its role in the newer revision, found by
 * walking the document from its catalogue: page content and resources first, so an object shared by a page and an
 * annotation counts as page content.
 */
import { PDFArray, PDFDict, PDFName, type PDFObject, PDFRawStream, PDFRef } from '@cantoo/pdf-lib';
import { BudgetExceededError, type RevisionState } from './pdf-revisions.ts';
import type { ChangeKind, RevisionChange } from './types.ts';

type RoleKind =
  | 'catalog'
  | 'pages'
  | 'page'
  | 'page-content'
  | 'page-resources'
  | 'annots'
  | 'annotation'
  | 'annotation-appearance'
  | 'acroform'
  | 'fields'
  | 'field'
  | 'signature'
  | 'dss'
  | 'metadata'
  | 'other';

interface Role {
  kind: RoleKind;
  page: number | null;
  /** For an annotation's appearance: the annotation it belongs to. */
  owner?: number;
}

const VISIT_BUDGET = 1_000_000;

/** Roles of every object reachable from the catalogue of `state`, by object number. */
function roles(state: RevisionState): Map<number, Role> {
  const map = new Map<number, Role>();
  let visits = 0;
  const mark = (value: PDFObject | undefined, role: Role, skip: readonly string[] = []): void => {
    if (++visits > VISIT_BUDGET) throw new BudgetExceededError('object graph too large');
    if (value instanceof PDFRef) {
      if (map.has(value.objectNumber)) return;
      map.set(value.objectNumber, role);
      mark(state.object(value)?.value, role, skip);
      return;
    }
    const dict = value instanceof PDFRawStream ? value.dict : value instanceof PDFDict ? value : null;
    if (dict) {
      for (const [key, item] of dict.entries()) if (!skip.includes(key.decodeText())) mark(item, role, skip);
    } else if (value instanceof PDFArray) {
      for (const item of value.asArray()) mark(item, role, skip);
    }
  };
  const claim = (value: PDFObject | undefined, role: Role): boolean => {
    if (!(value instanceof PDFRef)) return true;
    if (map.has(value.objectNumber)) return false;
    map.set(value.objectNumber, role);
    return true;
  };

  const root = state.trailer.get(PDFName.of('Root'));
  claim(root, { kind: 'catalog', page: null });
  const catalog = state.root();

  // Pages first: their content and resources take precedence over every other role.
  let pageNumber = 0;
  const pages: { ref: PDFObject; dict: PDFDict; number: number }[] = [];
  const walkTree = (node: PDFObject | undefined, depth: number) => {
    if (depth > 64 || ++visits > VISIT_BUDGET) return;
    const dict = state.dict(node);
    if (!dict) return;
    if (state.get(dict, 'Type') === PDFName.of('Page')) {
      pageNumber += 1;
      if (!claim(node, { kind: 'page', page: pageNumber })) return;
      pages.push({ ref: node!, dict, number: pageNumber });
      mark(dict.get(PDFName.of('Contents')), { kind: 'page-content', page: pageNumber });
      mark(dict.get(PDFName.of('Resources')), { kind: 'page-resources', page: pageNumber });
      return;
    }
    if (!claim(node, { kind: 'pages', page: null })) return;
    mark(dict.get(PDFName.of('Resources')), { kind: 'page-resources', page: null });
    for (const kid of state.array(dict.get(PDFName.of('Kids')))?.asArray() ?? []) walkTree(kid, depth + 1);
  };
  walkTree(catalog?.get(PDFName.of('Pages')), 0);

  for (const { dict, number } of pages) {
    const annots = dict.get(PDFName.of('Annots'));
    claim(annots, { kind: 'annots', page: number });
    for (const annotation of state.array(annots)?.asArray() ?? []) {
      if (!claim(annotation, { kind: 'annotation', page: number })) continue;
      const annotationDict = state.dict(annotation);
      if (!annotationDict) continue;
      const owner = annotation instanceof PDFRef ? annotation.objectNumber : undefined;
      mark(annotationDict.get(PDFName.of('AP')), { kind: 'annotation-appearance', page: number, owner });
      // A merged field and widget may hold the signature dictionary itself.
      if (isSignatureField(state, annotationDict)) {
        mark(annotationDict.get(PDFName.of('V')), { kind: 'signature', page: number });
      }
      mark(annotationDict, { kind: 'annotation', page: number }, ['AP', 'P', 'Parent', 'V']);
    }
    mark(dict, { kind: 'page', page: number }, ['Contents', 'Resources', 'Annots', 'Parent']);
  }

  const form = catalog?.get(PDFName.of('AcroForm'));
  claim(form, { kind: 'acroform', page: null });
  const formDict = state.dict(form);
  if (formDict) {
    const fields = formDict.get(PDFName.of('Fields'));
    claim(fields, { kind: 'fields', page: null });
    const walkField = (field: PDFObject, depth: number) => {
      if (depth > 32) return;
      claim(field, { kind: 'field', page: null });
      const dict = state.dict(field);
      if (!dict) return;
      if (isSignatureField(state, dict)) mark(dict.get(PDFName.of('V')), { kind: 'signature', page: null });
      for (const kid of state.array(dict.get(PDFName.of('Kids')))?.asArray() ?? []) walkField(kid, depth + 1);
      mark(dict, { kind: 'field', page: null }, ['Kids', 'Parent', 'P', 'V', 'AP']);
    };
    for (const field of state.array(fields)?.asArray() ?? []) walkField(field, 0);
    mark(formDict, { kind: 'acroform', page: null }, ['Fields']);
  }
  mark(catalog?.get(PDFName.of('DSS')), { kind: 'dss', page: null });
  mark(catalog?.get(PDFName.of('Metadata')), { kind: 'metadata', page: null });
  mark(state.trailer.get(PDFName.of('Info')), { kind: 'metadata', page: null });
  mark(catalog, { kind: 'other', page: null }, ['Pages', 'AcroForm', 'DSS', 'Metadata']);
  return map;
}

/** A field (or merged field and widget) of type /Sig, directly or through its parent. */
function isSignatureField(state: RevisionState, dict: PDFDict): boolean {
  let current: PDFDict | undefined = dict;
  for (let depth = 0; current && depth < 16; depth++) {
    const type = current.get(PDFName.of('FT'));
    if (type) return state.resolve(type) === PDFName.of('Sig');
    current = state.dict(current.get(PDFName.of('Parent')));
  }
  return false;
}

/** The kind of a signature field's value: a document timestamp or a signature. */
function signatureKind(state: RevisionState, dict: PDFDict): ChangeKind {
  let current: PDFDict | undefined = dict;
  for (let depth = 0; current && depth < 16; depth++) {
    const value = state.dict(current.get(PDFName.of('V')));
    if (value) {
      const type = state.get(value, 'Type');
      const subFilter = state.get(value, 'SubFilter');
      return type === PDFName.of('DocTimeStamp') || subFilter === PDFName.of('ETSI.RFC3161')
        ? 'document-timestamp'
        : 'signature';
    }
    current = state.dict(current.get(PDFName.of('Parent')));
  }
  return 'signature';
}

const same = (a: PDFObject | undefined, b: PDFObject | undefined): boolean => {
  if (a === b) return true;
  if (!a || !b) return false;
  if (a instanceof PDFRawStream && b instanceof PDFRawStream) {
    return a.dict.toString() === b.dict.toString() && Buffer.from(a.contents).equals(Buffer.from(b.contents));
  }
  return a.toString() === b.toString();
};

/** Keys whose values differ between two dictionaries (references compared as references). */
function changedKeys(a: PDFDict | undefined, b: PDFDict | undefined): string[] {
  const keys = new Set([...(a?.keys() ?? []), ...(b?.keys() ?? [])].map((k) => k.decodeText()));
  return [...keys].filter((key) => !same(a?.get(PDFName.of(key)), b?.get(PDFName.of(key))));
}

interface Classified {
  kind: ChangeKind;
  page: number | null;
}

/** Classifies the changes one revision made (old → next). */
export function classifyRevision(
  old: RevisionState,
  next: RevisionState,
): { kind: ChangeKind; page: number | null; object: string }[] {
  const nextRoles = roles(next);
  let oldRoles: Map<number, Role> | null = null;
  const out: { kind: ChangeKind; page: number | null; object: string }[] = [];
  const add = (classified: Classified[], object: string) => {
    for (const c of classified) out.push({ ...c, object });
  };

  const annotationKind = (state: RevisionState, value: PDFObject | undefined): ChangeKind => {
    const dict = state.dict(value);
    if (!dict) return 'annotation';
    if (isSignatureField(state, dict)) return signatureKind(state, dict);
    return 'annotation';
  };
  const listDiff = (
    oldList: PDFArray | undefined,
    newList: PDFArray | undefined,
    page: number | null,
    removedSignature: ChangeKind,
  ): Classified[] => {
    const key = (v: PDFObject) => (v instanceof PDFRef ? v.toString() : v.toString());
    const before = new Map((oldList?.asArray() ?? []).map((v) => [key(v), v]));
    const after = new Map((newList?.asArray() ?? []).map((v) => [key(v), v]));
    const result: Classified[] = [];
    for (const [k, v] of after) if (!before.has(k)) result.push({ kind: annotationKind(next, v), page });
    for (const [k, v] of before) {
      if (after.has(k)) continue;
      const dict = old.dict(v);
      result.push({ kind: dict && isSignatureField(old, dict) ? removedSignature : 'annotation', page });
    }
    return result;
  };

  const catalogDiff = (): Classified[] => {
    const before = old.root();
    const after = next.root();
    return changedKeys(before, after).flatMap((key): Classified[] => {
      if (key === 'DSS') return [{ kind: 'dss', page: null }];
      if (key === 'Metadata') return [{ kind: 'metadata', page: null }];
      if (key === 'AcroForm')
        return formDiff(old.dict(before?.get(PDFName.of('AcroForm'))), next.dict(after?.get(PDFName.of('AcroForm'))));
      if (key === 'Pages') return [{ kind: 'page-tree', page: null }];
      return [{ kind: 'catalog', page: null }];
    });
  };
  const formDiff = (before: PDFDict | undefined, after: PDFDict | undefined): Classified[] =>
    changedKeys(before, after).flatMap((key): Classified[] => {
      if (key === 'Fields') {
        return listDiff(
          old.array(before?.get(PDFName.of('Fields'))),
          next.array(after?.get(PDFName.of('Fields'))),
          null,
          'signature-modified',
        );
      }
      if (key === 'SigFlags') return [{ kind: 'signature', page: null }];
      if (key === 'DR' || key === 'DA' || key === 'NeedAppearances') return [{ kind: 'form-fill', page: null }];
      return [{ kind: 'acroform', page: null }];
    });

  const numbers = new Set([...old.entries.keys(), ...next.entries.keys()]);
  const rootNumber = (next.trailer.get(PDFName.of('Root')) as PDFRef | undefined)?.objectNumber;
  const oldRootNumber = (old.trailer.get(PDFName.of('Root')) as PDFRef | undefined)?.objectNumber;
  if (rootNumber !== oldRootNumber || !same(old.root(), next.root())) add(catalogDiff(), 'catalog');
  if (!same(old.trailer.get(PDFName.of('Info')), next.trailer.get(PDFName.of('Info')))) {
    add([{ kind: 'metadata', page: null }], 'trailer');
  }

  for (const number of numbers) {
    if (old.entryKey(number) === next.entryKey(number)) continue;
    if (number === rootNumber || number === oldRootNumber) continue;
    const ref = PDFRef.of(number, 0);
    const label = `${number} 0 R`;
    const isNew = old.entryKey(number) === null;
    const removed = next.entryKey(number) === null;
    let role = nextRoles.get(number);
    if (removed || !role) {
      if (!removed) continue; // a new or rewritten object nothing refers to changes nothing a viewer shows
      oldRoles ??= roles(old);
      role = oldRoles.get(number);
      if (!role) continue;
      const kind: ChangeKind =
        role.kind === 'signature' || role.kind === 'field'
          ? 'signature-modified'
          : role.kind === 'annotation' || role.kind === 'annotation-appearance' || role.kind === 'annots'
            ? 'annotation'
            : roleChange(role.kind);
      add([{ kind, page: role.page }], label);
      continue;
    }
    const before = isNew ? undefined : old.object(refFor(old, number) ?? ref)?.value;
    const after = next.object(refFor(next, number) ?? ref)?.value;
    switch (role.kind) {
      case 'page': {
        if (isNew) {
          add([{ kind: 'page-tree', page: role.page }], label);
          break;
        }
        const keys = changedKeys(dictOf(before), dictOf(after));
        const classified = keys.flatMap((key): Classified[] => {
          if (key === 'Annots') {
            return listDiff(
              old.array(dictOf(before)?.get(PDFName.of('Annots'))),
              next.array(dictOf(after)?.get(PDFName.of('Annots'))),
              role.page,
              'signature-modified',
            );
          }
          if (key === 'Contents') return [{ kind: 'page-content', page: role.page }];
          if (key === 'Resources') return [{ kind: 'page-resources', page: role.page }];
          return [{ kind: 'page', page: role.page }];
        });
        add(classified, label);
        break;
      }
      case 'annots':
        add(listDiff(old.array(before), next.array(after), role.page, 'signature-modified'), label);
        break;
      case 'fields':
        add(listDiff(old.array(before), next.array(after), null, 'signature-modified'), label);
        break;
      case 'annotation':
      case 'field': {
        const dict = next.dict(after);
        const signature = !!dict && isSignatureField(next, dict);
        if (isNew)
          add(
            [
              {
                kind: signature ? signatureKind(next, dict) : role.kind === 'field' ? 'form-fill' : 'annotation',
                page: role.page,
              },
            ],
            label,
          );
        else if (signature) {
          // Signing an empty signature field is a new signature; changing a signed one is not allowed.
          const hadValue = !!old.dict(dictOf(before))?.get(PDFName.of('V'));
          add([{ kind: hadValue ? 'signature-modified' : signatureKind(next, dict), page: role.page }], label);
        } else
          add(
            [
              {
                kind: dict?.get(PDFName.of('FT')) || dict?.get(PDFName.of('Parent')) ? 'form-fill' : 'annotation',
                page: role.page,
              },
            ],
            label,
          );
        break;
      }
      case 'annotation-appearance': {
        const owner = role.owner === undefined ? undefined : PDFRef.of(role.owner, 0);
        const ownerDict = owner ? next.dict(next.object(refFor(next, role.owner!) ?? owner)?.value) : undefined;
        const ownerIsNew = role.owner !== undefined && old.entryKey(role.owner) === null;
        const signature = !!ownerDict && isSignatureField(next, ownerDict);
        const kind: ChangeKind = signature
          ? ownerIsNew
            ? signatureKind(next, ownerDict)
            : 'signature-modified'
          : ownerDict?.get(PDFName.of('FT')) || ownerDict?.get(PDFName.of('Parent'))
            ? 'form-fill'
            : 'annotation';
        add([{ kind, page: role.page }], label);
        break;
      }
      case 'acroform':
        add(isNew ? [{ kind: 'acroform', page: null }] : formDiff(dictOf(before), dictOf(after)), label);
        break;
      case 'signature': {
        const dict = dictOf(after);
        const kind: ChangeKind = !isNew
          ? 'signature-modified'
          : next.get(dict, 'Type') === PDFName.of('DocTimeStamp')
            ? 'document-timestamp'
            : 'signature';
        add([{ kind, page: role.page }], label);
        break;
      }
      default:
        add([{ kind: roleChange(role.kind), page: role.page }], label);
    }
  }
  return out;
}

function roleChange(kind: RoleKind): ChangeKind {
  switch (kind) {
    case 'page-content':
      return 'page-content';
    case 'page-resources':
      return 'page-resources';
    case 'pages':
      return 'page-tree';
    case 'page':
      return 'page';
    case 'dss':
      return 'dss';
    case 'metadata':
      return 'metadata';
    case 'acroform':
    case 'fields':
      return 'acroform';
    default:
      return 'catalog';
  }
}

const dictOf = (value: PDFObject | undefined): PDFDict | undefined =>
  value instanceof PDFDict ? value : value instanceof PDFRawStream ? value.dict : undefined;

/** The reference of object `number` with the generation this revision's xref gives it. */
function refFor(state: RevisionState, number: number): PDFRef | null {
  const entry = state.entries.get(number);
  return entry && entry.kind === 'offset' ? PDFRef.of(number, entry.generation) : entry ? PDFRef.of(number, 0) : null;
}

/** Which kinds may follow a signature: by the certification level, or (uncertified) when a later signature covers them. */
export function changeAllowed(
  kind: ChangeKind,
  certification: 1 | 2 | 3 | null,
  coveredByLaterSignature: boolean,
): boolean {
  switch (kind) {
    case 'dss':
    case 'document-timestamp':
      return true;
    case 'metadata':
      return certification !== 1;
    case 'signature':
      return certification !== 1;
    case 'form-fill':
      return certification === null ? coveredByLaterSignature : certification >= 2;
    case 'annotation':
      return certification === null ? coveredByLaterSignature : certification === 3;
    default:
      return false;
  }
}

/** Collapses per-object changes into one entry per revision, kind and page (at most 10 objects named each). */
export function summarize(
  revision: number,
  changes: { kind: ChangeKind; page: number | null; object: string }[],
  allowed: (kind: ChangeKind) => boolean,
): RevisionChange[] {
  const grouped = new Map<string, RevisionChange>();
  for (const change of changes) {
    const key = `${change.kind}|${change.page ?? ''}`;
    let entry = grouped.get(key);
    if (!entry) {
      entry = { revision, kind: change.kind, allowed: allowed(change.kind), page: change.page, objects: [] };
      grouped.set(key, entry);
    }
    if (entry.objects.length < 10 && !entry.objects.includes(change.object)) entry.objects.push(change.object);
  }
  return [...grouped.values()];
}
