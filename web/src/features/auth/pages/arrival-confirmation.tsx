import { PublicFrame } from '../../../components/public-frame.tsx';

// Filled by the auth screens work of issue [2/5].
export function ArrivalConfirmationPage() {
  return <PublicFrame title="ArrivalConfirmationPage">{null}</PublicFrame>;
}
