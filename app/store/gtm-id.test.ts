import { describe, expect, it } from "vitest";
import { gtmIdProblem, readGtmId } from "./gtm-id";

describe("gtmIdProblem", () => {
  it.each(["GTM-ABC123", "GTM-1", "GTM-XYZ"])("accepts %s", (id) => {
    expect(gtmIdProblem(id)).toBeNull();
  });

  it.each([
    ["gtm-abc123", "'gtm-abc123' is not a valid GTM-ID (/^GTM-[0-9A-Z]+$/). Did you mean 'GTM-ABC123'?"],
    ["ABC123", "'ABC123' is not a valid GTM-ID (/^GTM-[0-9A-Z]+$/). Did you mean 'GTM-ABC123'?"],
    ["GTM-abc_12", "'GTM-abc_12' is not a valid GTM-ID (/^GTM-[0-9A-Z]+$/). Did you mean 'GTM-ABC12'?"],
    ["UA-1234-5", "'UA-1234-5' is not a valid GTM-ID (/^GTM-[0-9A-Z]+$/). Did you mean 'GTM-5'?"],
    ["GTM-", "'GTM-' is not a valid GTM-ID (/^GTM-[0-9A-Z]+$/)."],
    ["---", "'---' is not a valid GTM-ID (/^GTM-[0-9A-Z]+$/)."],
    ["gtm-ä!", "'gtm-ä!' is not a valid GTM-ID (/^GTM-[0-9A-Z]+$/)."],
  ])("refuses %j", (id, message) => {
    expect(gtmIdProblem(id)).toBe(message);
  });
});

describe("readGtmId", () => {
  it("is null without GTM_ID", () => {
    expect(readGtmId({})).toBeNull();
    expect(readGtmId({ GTM_ID: "" })).toBeNull();
  });

  it("throws the message for a bad id", () => {
    expect(() => readGtmId({ GTM_ID: "gtm-1" })).toThrow("'gtm-1' is not a valid GTM-ID (/^GTM-[0-9A-Z]+$/). Did you mean 'GTM-1'?");
  });
});
