/*
 * The signature types plugins register (Plugin.signatureTypes). A sign task names one; a type whose plugin is off
 * is unavailable (422 SIGNATURE_TYPE_UNAVAILABLE when planned, 409 when a task of that type is signed).
 */
import { AppError } from '../http/errors.ts';
import type { SignatureType, SignatureTypeCode } from './signature-types.ts';

/** What every type's appearance and two-factor rules are, shared by the plan check and the signing module. */
export class SignatureTypeRegistry {
  private readonly types = new Map<SignatureTypeCode, SignatureType>();

  register(type: SignatureType, plugin: string): void {
    if (this.types.has(type.code)) throw new Error(`plugin ${plugin}: signature type ${type.code} is registered twice`);
    this.types.set(type.code, type);
  }

  has(code: string): boolean {
    return this.types.has(code as SignatureTypeCode);
  }

  /** The type, or 409 SIGNATURE_TYPE_UNAVAILABLE when no plugin that is on provides it. */
  get(code: string): SignatureType {
    const type = this.types.get(code as SignatureTypeCode);
    if (!type) throw new AppError('SIGNATURE_TYPE_UNAVAILABLE', { params: { type: code } });
    return type;
  }

  list(): SignatureType[] {
    return [...this.types.values()];
  }
}
