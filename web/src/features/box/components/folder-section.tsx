import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import type { BoxConnection } from '../api/box-connection.ts';
import { useSetBoxRootFolder } from '../api/box-connection.ts';
import { FOLDER_PAGE, useBoxFolders } from '../api/box-folders.ts';

type FolderRef = NonNullable<BoxConnection['rootFolder']>;

/** The destination folder, where documents land below it, and the picker to change it (while Box accepts us). */
export function FolderSection({ rootFolder, usable }: { rootFolder: FolderRef; usable: boolean }) {
  const { t } = useTranslation('box');
  const [picking, setPicking] = useState(false);
  const rootName = rootFolder.id === '0' ? t('folder.root') : rootFolder.name;
  return (
    <section aria-labelledby="box-folder-title" className="panel box-folder">
      <h2 id="box-folder-title">{t('folder.title')}</h2>
      <dl className="facts">
        <div>
          <dt>{t('folder.current')}</dt>
          <dd data-testid="box-root-folder">{rootName}</dd>
        </div>
      </dl>
      <p className="hint">{t('folder.where', { root: rootName })}</p>
      {usable && (
        <div className="org-actions">
          <button
            type="button"
            className="button"
            aria-expanded={picking}
            aria-controls="box-folder-picker"
            onClick={() => setPicking((open) => !open)}
          >
            {picking ? t('folder.close') : t('folder.change')}
          </button>
        </div>
      )}
      {usable && picking && <FolderPicker startAt={rootFolder.id} onChosen={() => setPicking(false)} />}
    </section>
  );
}

/** Box's folders from All Files down: open a subfolder, go back through the breadcrumbs, choose the one shown. */
function FolderPicker({ startAt, onChosen }: { startAt: string; onChosen: () => void }) {
  const { t } = useTranslation('box');
  const [parentId, setParentId] = useState(startAt);
  const [offset, setOffset] = useState(0);
  const folders = useBoxFolders(parentId, offset, true);
  const choose = useSetBoxRootFolder();
  const go = (id: string) => {
    setParentId(id);
    setOffset(0);
  };
  const meta = folders.data?.meta;
  const label = (folder: FolderRef) => (folder.id === '0' ? t('folder.root') : folder.name);
  const trail = meta ? [...meta.path, meta.parent] : [];

  return (
    <div id="box-folder-picker" role="group" aria-label={t('folder.pickerLabel')} className="box-picker">
      <nav aria-label={t('folder.breadcrumbs')}>
        <ol className="box-breadcrumbs">
          {trail.map((folder, index) => (
            <li key={folder.id}>
              {index === trail.length - 1 ? (
                <span aria-current="location">{label(folder)}</span>
              ) : (
                <button type="button" className="link-button" onClick={() => go(folder.id)}>
                  {label(folder)}
                </button>
              )}
            </li>
          ))}
        </ol>
      </nav>
      {folders.isPending && (
        <p role="status" className="muted">
          {t('folder.loading')}
        </p>
      )}
      <ApiErrorNotice error={folders.error} />
      {/* The folder may have gone at Box: the way back to the top. */}
      {folders.error && parentId !== '0' && (
        <div className="org-actions">
          <button type="button" className="button" onClick={() => go('0')}>
            {t('folder.open', { name: t('folder.root') })}
          </button>
        </div>
      )}
      {folders.data && (
        <>
          {folders.data.data.length === 0 ? (
            <p className="muted">{t('folder.empty')}</p>
          ) : (
            <ul className="box-folders" aria-busy={folders.isFetching}>
              {folders.data.data.map((folder) => (
                <li key={folder.id}>
                  <button
                    type="button"
                    className="box-folder-button"
                    aria-label={t('folder.open', { name: folder.attributes.name })}
                    onClick={() => go(folder.id)}
                  >
                    <span aria-hidden="true" className="box-folder-icon">
                      ▸
                    </span>
                    {folder.attributes.name}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {meta && meta.total > FOLDER_PAGE && (
            <div className="org-actions box-pager">
              <button
                type="button"
                className="button"
                disabled={offset === 0}
                onClick={() => setOffset(Math.max(0, offset - FOLDER_PAGE))}
              >
                {t('folder.previous')}
              </button>
              <span className="muted">
                {t('folder.range', {
                  from: offset + 1,
                  to: Math.min(offset + FOLDER_PAGE, meta.total),
                  total: meta.total,
                })}
              </span>
              <button
                type="button"
                className="button"
                disabled={offset + FOLDER_PAGE >= meta.total}
                onClick={() => setOffset(offset + FOLDER_PAGE)}
              >
                {t('folder.next')}
              </button>
            </div>
          )}
          <ApiErrorNotice error={choose.error} />
          <div className="org-actions">
            <button
              type="button"
              className="button primary"
              disabled={choose.isPending || !meta}
              onClick={() =>
                meta &&
                choose.mutate(meta.parent.id, {
                  onSuccess: () => {
                    toast.success(t('folder.chosen', { name: label(meta.parent) }));
                    onChosen();
                  },
                })
              }
            >
              {t('folder.choose')}
            </button>
          </div>
        </>
      )}
    </div>
  );
}
