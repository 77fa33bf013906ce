import { createContext, useContext } from "react";

/** The per-response script nonce; empty in the browser and in prerendered files. */
export const CspNonceContext = createContext<string | undefined>(undefined);

export function useCspNonce(): string | undefined {
  return useContext(CspNonceContext);
}
