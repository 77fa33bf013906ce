import { describe, expect, it } from "vitest";
import { redactSecrets } from "./stripe-errors.server";

describe("redactSecrets", () => {
  it("removes the given secrets and anything shaped like a key or webhook secret", () => {
    const text = "key sk_test_abc123 and sk_live_****wxyz, rk_test_9, whsec_Zm9v+/=, own s3cr3t, pk_test_1";
    expect(redactSecrets(text, ["s3cr3t"])).toBe("key [redacted] and [redacted], [redacted], [redacted], own [redacted], [redacted]");
  });
});
