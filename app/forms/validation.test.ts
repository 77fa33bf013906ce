import { describe, expect, it } from "vitest";
import { formValues, validateFeedback, validateRefund } from "./validation";

describe("validateRefund", () => {
  it.each([
    [{ orderNumber: "VN-7K3M-Q9XD", email: "anna@example.com", reason: "withdrawal" }, {}],
    [{ orderNumber: " vn-7k3m-q9xd ", email: "anna@example.com", reason: "guarantee" }, {}],
    [{ orderNumber: "123456", email: "anna@example.com", reason: "other" }, { orderNumber: true }],
    [{ orderNumber: "VN-7K3M-Q9XD", email: "anna@", reason: "damaged" }, { email: true }],
    [{ orderNumber: "VN-7K3M-Q9XD", email: "anna@example.com", reason: "because" }, { reason: true }],
    [{}, { orderNumber: true, email: true, reason: true }],
  ])("%j → %j", (values, errors) => {
    expect(validateRefund(values)).toEqual(errors);
  });
});

describe("validateFeedback", () => {
  it.each([
    [{ rating: "5", comment: "", email: "" }, {}],
    [{ rating: "0", comment: "", email: "" }, { rating: true }],
    [{ rating: "3", comment: "x".repeat(2001), email: "" }, { comment: true }],
    [{ rating: "4", comment: "ok", email: "not-an-email" }, { email: true }],
  ])("%j → %j", (values, errors) => {
    expect(validateFeedback(values)).toEqual(errors);
  });
});

describe("formValues", () => {
  it("reads only the named fields, as strings", () => {
    const form = new FormData();
    form.set("email", "a@b.eu");
    form.set("extra", "ignored");
    expect(formValues(form, ["email", "reason"])).toEqual({ email: "a@b.eu", reason: "" });
  });
});
