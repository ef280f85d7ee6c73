import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SealContent } from '../../../components/signing/placement-tools.tsx';

/** The largest seal image a guest uploads (the data URL goes inline with the signature, 2,000,000 characters). */
const MAX_BYTES = 1_400_000;
const TYPES = ['image/png', 'image/jpeg'];

function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

function imageAspect(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image.naturalWidth / Math.max(1, image.naturalHeight));
    image.onerror = () => reject(new Error('not an image'));
    image.src = url;
  });
}

/**
 * A guest has no registered seal images: they pick a PNG or JPEG on the spot, see it, and place it. The image travels
 * inline (a data URL) with the signature, as a drawn signature does.
 */
export function SealUploadTool(props: {
  disabled: boolean;
  onAdd: (seal: SealContent, aspect: number) => void;
  addLabel?: string;
}) {
  const { t } = useTranslation('oneTime');
  const id = useId();
  const [image, setImage] = useState<{ url: string; aspect: number } | null>(null);
  const [problem, setProblem] = useState<'tooLarge' | 'notImage' | null>(null);
  const [fileName, setFileName] = useState('');

  const choose = async (file: File | undefined) => {
    setImage(null);
    setProblem(null);
    if (!file) return;
    if (!TYPES.includes(file.type)) {
      setProblem('notImage');
      return;
    }
    if (file.size > MAX_BYTES) {
      setProblem('tooLarge');
      return;
    }
    try {
      const url = await readDataUrl(file);
      setImage({ url, aspect: await imageAspect(url) });
    } catch {
      setProblem('notImage');
    }
  };

  return (
    <fieldset className="placement-tool">
      <legend>{t('seal.title')}</legend>
      <p id={`${id}-hint`} className="hint">
        {t('seal.hint')}
      </p>
      {/* The browser's own file button speaks the browser's language: this one speaks the page's. */}
      <label className="button onetime-file-button">
        {t('seal.choose')}
        <input
          id={id}
          className="visually-hidden"
          type="file"
          accept={TYPES.join(',')}
          aria-describedby={`${id}-hint`}
          aria-invalid={problem ? true : undefined}
          onChange={(event) => {
            setFileName(event.target.files?.[0]?.name ?? '');
            void choose(event.target.files?.[0]);
          }}
        />
      </label>
      {fileName && <p className="onetime-file-name">{fileName}</p>}
      {problem && (
        <p role="alert" className="field-error">
          {t(`seal.${problem}`)}
        </p>
      )}
      {image && <img className="seal-thumbnail" src={image.url} alt={t('seal.file')} />}
      <button
        type="button"
        className="button"
        disabled={props.disabled || !image}
        onClick={() => image && props.onAdd({ image: image.url }, image.aspect)}
      >
        {props.addLabel ?? t('seal.add')}
      </button>
    </fieldset>
  );
}
