import { afterEach, describe, expect, it, vi } from "vitest";
import { rememberConsentForServer } from "./consent-cookie";

/** The cookies a choice writes, as the browser is told them one by one. */
function cookiesWritten(choice: "granted" | "denied"): string[] {
  const written: string[] = [];
  vi.stubGlobal("location", { protocol: "https:" });
  vi.stubGlobal("document", {
    set cookie(value: string) {
      written.push(value);
    },
  });
  rememberConsentForServer(choice);
  return written;
}

describe("the consent told to the server", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("is kept for six months when granted, and nothing else is touched", () => {
    expect(cookiesWritten("granted")).toEqual(["vitanor_consent=granted; Max-Age=15552000; Path=/; SameSite=Lax; Secure"]);
  });

  it("is removed when denied, and the visit's touch with it", () => {
    expect(cookiesWritten("denied")).toEqual(["vitanor_consent=; Max-Age=0; Path=/; SameSite=Lax; Secure", "vitanor_touch=; Max-Age=0; Path=/; SameSite=Lax; Secure"]);
  });
});
