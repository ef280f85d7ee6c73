import { PublicFrame } from '../../../components/public-frame.tsx';

// Filled by the auth screens work of issue [2/5].
export function ExpiredPasswordChangePage() {
  return <PublicFrame title="ExpiredPasswordChangePage">{null}</PublicFrame>;
}
