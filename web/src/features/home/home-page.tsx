import { FramePage } from '../../components/frame-page.tsx';

// Filled by the auth screens work of issue [2/5].
export function HomePage() {
  return <FramePage title="Home" />;
}
