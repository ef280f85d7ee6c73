// Checks made in the browser before an upload, with the codes the server would answer (errors.json). The seal
// image checks live with the shared seal image manager (components/seal-images).
import { type FileProblem, sizeProblem } from '../../components/seal-images/file-checks.ts';

export {
  type FileProblem,
  fileSize,
  SEAL_IMAGE_MAX_BYTES,
  SEAL_IMAGE_TYPES,
  SEAL_NAME_MAX,
  sealImageProblem,
} from '../../components/seal-images/file-checks.ts';

/** E-certificates: a PKCS#12 file of at most 1 MB. */
export const CERTIFICATE_MAX_BYTES = 1024 * 1024;

export function certificateProblem(file: File | null): FileProblem | null {
  const size = sizeProblem(file, CERTIFICATE_MAX_BYTES);
  if (size || !file) return size;
  if (!/\.(p12|pfx)$/i.test(file.name)) return { code: 'FILE_TYPE_NOT_ALLOWED', params: { allowed: '.p12, .pfx' } };
  return null;
}
