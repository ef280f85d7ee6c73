import { useSealImageContent } from '../../api/seal-images.ts';
import { useObjectUrl } from '../object-url.ts';
import type { Placement } from './placement.ts';

function SealImage({ sealImageId }: { sealImageId: string }) {
  const content = useSealImageContent(sealImageId);
  const url = useObjectUrl(content.data);
  return url ? <img src={url} alt="" draggable={false} /> : null;
}

/**
 * What a placement will look like on the page: the drawing or an image uploaded on the spot (a data URL), a
 * member's registered seal image (fetched by id), or the text lines.
 */
export function PlacementContent({ placement, height }: { placement: Placement; height: number }) {
  if (placement.image) return <img src={placement.image} alt="" draggable={false} />;
  if (placement.kind === 'seal' && placement.sealImageId) return <SealImage sealImageId={placement.sealImageId} />;
  const lines = placement.lines ?? [];
  // Three lines always fit the box's height, as the server draws them.
  return (
    // A span, so the content may also sit inside a field's button.
    <span className="placement-text" style={{ fontSize: Math.max(6, (height / 3) * 0.8) }}>
      {lines.map((line, index) => (
        <span key={index}>{line}</span>
      ))}
    </span>
  );
}
