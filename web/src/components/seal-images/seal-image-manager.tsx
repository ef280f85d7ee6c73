import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiError } from '../../api/errors.ts';
import { type SealImage, useSealImageContent, useSealImages } from '../../api/seal-images.ts';
import en from '../../i18n/en/signing.json';
import ja from '../../i18n/ja/signing.json';
import { registerCatalogue } from '../../i18n/lazy.ts';
import { ApiErrorNotice, useErrorText } from '../api-error-notice.tsx';
import { ConfirmDialog } from '../confirm-dialog.tsx';
import { japanDateFormat } from '../date-format.ts';
import { FormActions } from '../form-actions.tsx';
import { FormField } from '../form-field.tsx';
import { useObjectUrl } from '../object-url.ts';
import { fileSize, type FileProblem, SEAL_NAME_MAX, sealImageProblem } from './file-checks.ts';
import { useCreateSealImage, useDeleteSealImage } from './seal-image-changes.ts';
import './seal-images.css';

registerCatalogue('signing', { ja, en });

type Level = 2 | 3;

function Heading({ level, id, children }: { level: Level; id?: string; children: string }) {
  return level === 2 ? <h2 id={id}>{children}</h2> : <h3 id={id}>{children}</h3>;
}

function Thumbnail({ image }: { image: SealImage }) {
  const content = useSealImageContent(image.id);
  const url = useObjectUrl(content.data);
  return (
    <div className="seal-card-image">
      {url ? <img src={url} alt={image.attributes.name} /> : <span className="muted">…</span>}
    </div>
  );
}

function UploadForm({ full, level }: { full: boolean; level: Level }) {
  const { t } = useTranslation(['signing', 'errors']);
  const errorText = useErrorText();
  const create = useCreateSealImage();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<FileProblem | ApiError | null>(null);
  const [failure, setFailure] = useState<unknown>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const found = sealImageProblem(file);
    setProblem(found);
    if (found || !file) return;
    try {
      await create.mutateAsync({ file, name });
      toast.success(t('sealImages.uploaded'));
      setFile(null);
      setName('');
      if (input.current) input.current.value = '';
    } catch (error) {
      if (error instanceof ApiError && (error.code.startsWith('FILE_') || error.code === 'SIGNING_IMAGE_INVALID')) {
        setProblem(error);
      } else setFailure(error);
    }
  };
  const fileErrors = problem
    ? [problem instanceof ApiError ? errorText(problem) : t(`errors:${problem.code}`, problem.params ?? {})]
    : [];

  return (
    <form className="panel admin-form" noValidate onSubmit={(event) => void submit(event)}>
      <Heading level={level}>{t('sealImages.uploadTitle')}</Heading>
      <ApiErrorNotice error={failure} />
      <div className="field">
        <label htmlFor="seal-image-file">{t('sealImages.file')}</label>
        <p id="seal-image-file-hint" className="hint">
          {t('sealImages.fileHint')}
        </p>
        <input
          ref={input}
          id="seal-image-file"
          type="file"
          accept="image/png,image/jpeg,image/gif"
          aria-describedby={
            fileErrors.length > 0 ? 'seal-image-file-hint seal-image-file-error' : 'seal-image-file-hint'
          }
          aria-invalid={fileErrors.length > 0 || undefined}
          onChange={(event) => {
            const chosen = event.target.files?.[0] ?? null;
            setFile(chosen);
            setProblem(null);
            if (chosen && !name) setName(chosen.name.replace(/\.[^.]+$/, '').slice(0, SEAL_NAME_MAX));
          }}
        />
        {fileErrors.length > 0 && (
          <div id="seal-image-file-error" className="field-error">
            {fileErrors.map((message) => (
              <p key={message}>{message}</p>
            ))}
          </div>
        )}
      </div>
      <FormField
        id="seal-image-name"
        label={t('sealImages.name')}
        hint={t('sealImages.nameHint', { max: SEAL_NAME_MAX })}
        maxLength={SEAL_NAME_MAX}
        autoComplete="off"
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      {full && <p className="notice">{t('errors:SEAL_IMAGE_LIMIT')}</p>}
      <FormActions
        pending={create.isPending}
        submitLabel={t('sealImages.upload')}
        sendingLabel={t('sealImages.uploading')}
      />
    </form>
  );
}

/**
 * The caller's seal images: upload (PNG, JPEG or GIF), the list with thumbnails, and delete. Used by the seal image
 * settings section and the account screen; `level` is the rank of its own headings under the host's.
 */
export function SealImageManager({ level = 2 }: { level?: Level }) {
  const { t, i18n } = useTranslation(['signing', 'common']);
  const list = useSealImages();
  const remove = useDeleteSealImage();
  const [deleting, setDeleting] = useState<SealImage | null>(null);
  const images = list.data?.data ?? [];
  const maximum = list.data?.meta.maximum ?? 0;
  const date = japanDateFormat(i18n.language);

  return (
    <>
      {list.isPending && (
        <p role="status" className="muted">
          {t('sealImages.loading')}
        </p>
      )}
      <ApiErrorNotice error={list.error} />
      {list.data && (
        <>
          <UploadForm full={images.length >= maximum} level={level} />
          <section aria-labelledby="seal-list-title" className="panel">
            <Heading level={level} id="seal-list-title">
              {t('sealImages.listTitle')}
            </Heading>
            <p className="muted">{t('sealImages.count', { count: images.length, max: maximum })}</p>
            {images.length === 0 ? (
              <p className="muted">{t('sealImages.empty')}</p>
            ) : (
              <ul className="seal-cards">
                {images.map((image) => (
                  <li key={image.id} className="seal-card">
                    <Thumbnail image={image} />
                    <div className="seal-card-text">
                      <strong>{image.attributes.name}</strong>
                      <span className="muted">
                        {t('sealImages.dimensions', {
                          width: image.attributes.width,
                          height: image.attributes.height,
                          size: fileSize(image.attributes.size),
                        })}
                      </span>
                      <span className="muted">
                        {t('sealImages.createdAt', { date: date.format(new Date(image.attributes.createdAt)) })}
                      </span>
                    </div>
                    <button
                      type="button"
                      className="button small danger"
                      aria-label={t('sealImages.deleteLabel', { name: image.attributes.name })}
                      onClick={() => {
                        remove.reset();
                        setDeleting(image);
                      }}
                    >
                      {t('sealImages.delete')}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('sealImages.deleteTitle')}
        confirmLabel={t('sealImages.delete')}
        danger
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toast.success(t('sealImages.deleted'));
              setDeleting(null);
            },
          })
        }
      >
        <p>{t('sealImages.deleteBody', { name: deleting?.attributes.name ?? '' })}</p>
        <ApiErrorNotice error={remove.error} />
      </ConfirmDialog>
    </>
  );
}
