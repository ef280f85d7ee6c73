import { Link, useLocation } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSealImageContent, useSealImages } from '../../../api/seal-images.ts';
import { useObjectUrl } from '../../../components/object-url.ts';
import { SelectField } from '../../../components/select-field.tsx';
import type { SealContent } from '../../../components/signing/placement-tools.tsx';

function SealThumbnail({ sealImageId, name }: { sealImageId: string; name: string }) {
  const content = useSealImageContent(sealImageId);
  const url = useObjectUrl(content.data);
  return url ? <img className="seal-thumbnail" src={url} alt={name} /> : null;
}

/** Choose one of the caller's seal images and put it on the page. */
export function MemberSealTool(props: {
  disabled: boolean;
  onAdd: (seal: SealContent, aspect: number) => void;
  addLabel?: string;
}) {
  const { t } = useTranslation('signing');
  const id = useId();
  const seals = useSealImages();
  const images = seals.data?.data ?? [];
  const [chosen, setChosen] = useState('');
  const pathname = useLocation({ select: (location) => location.pathname });
  const selected = images.find((image) => image.id === chosen) ?? images[0];
  if (seals.isPending) return <p className="muted">{t('placements.sealLoading')}</p>;
  if (images.length === 0) {
    return (
      <div className="notice">
        <p>{t('placements.sealNone')}</p>
        {/* The seal image screen offers the way back here once an image is registered. */}
        <Link to="/organizations/settings/seal-images" search={{ returnTo: pathname }}>
          {t('placements.sealManage')}
        </Link>
      </div>
    );
  }
  return (
    <div className="placement-tool">
      <SelectField
        id={`${id}-seal-image`}
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
        onClick={() =>
          selected && props.onAdd({ sealImageId: selected.id }, selected.attributes.width / selected.attributes.height)
        }
      >
        {props.addLabel ?? t('placements.addSeal')}
      </button>
    </div>
  );
}
