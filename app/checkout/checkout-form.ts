import { emailPattern } from "../forms/validation";
import { checkoutPartOf, providerFields, singleUseFields } from "../payments/checkout-parts";
import { normalizePostalCode } from "./postal-codes";

/**
 * The checkout form's fields and rules, the same in the browser (before sending) and on the
 * server (always). Field names are ours; the `autocomplete` tokens are the standard ones.
 */
export const contactFields = ["email", "givenName", "familyName", "addressLine1", "addressLine2", "postalCode", "city", "country", "phone"] as const;
export type ContactField = (typeof contactFields)[number];

/** Card fields typed into the form itself (the test gateway's), which the view labels and completes. */
export type CardField = "cardNumber" | "cardExpiry" | "cardCvc";

/** The form's fields: the buyer's, then each payment provider's own (`payments/checkout-parts.ts`), then the page's. */
export const checkoutFields: readonly string[] = [...contactFields, "method", "digitalConsent", ...providerFields, "token", "bundle", "quotedTotal", "quotedBumpTotal", "bump", "code", "appliedCode"];
export type CheckoutErrorField = ContactField | CardField | "method" | "digitalConsent";
export type CheckoutErrors = Partial<Record<CheckoutErrorField, true>>;

export const autocompleteTokens: Readonly<Record<ContactField | CardField, string>> = {
  email: "email",
  givenName: "given-name",
  familyName: "family-name",
  addressLine1: "address-line1",
  addressLine2: "address-line2",
  postalCode: "postal-code",
  city: "address-level2",
  country: "country",
  phone: "tel",
  cardNumber: "cc-number",
  cardExpiry: "cc-exp",
  cardCvc: "cc-csc",
};

const maxLengths: Partial<Record<ContactField, number>> = { email: 254, givenName: 100, familyName: 100, addressLine1: 200, addressLine2: 200, city: 100, phone: 30 };

interface Rules {
  /** The one country this market delivers to (ISO alpha-2). */
  country: string;
  methods: readonly string[];
  /** Whether the order has digital items, which need the buyer's express consent. */
  digital: boolean;
  today: Date;
}

const filled = (value: string | undefined, max: number) => {
  const trimmed = value?.trim() ?? "";
  return trimmed.length > 0 && trimmed.length <= max;
};

export function validateCheckout(values: Readonly<Record<string, string>>, rules: Rules): CheckoutErrors {
  const errors: CheckoutErrors = {};
  const email = values.email?.trim() ?? "";
  if (!emailPattern.test(email) || email.length > 254) errors.email = true;
  for (const field of ["givenName", "familyName", "addressLine1", "city"] as const) {
    if (!filled(values[field], maxLengths[field] ?? 100)) errors[field] = true;
  }
  if ((values.addressLine2 ?? "").length > 200) errors.addressLine2 = true;
  if (values.country !== rules.country) errors.country = true;
  if (!normalizePostalCode(rules.country, values.postalCode ?? "")) errors.postalCode = true;
  const phone = values.phone?.trim() ?? "";
  if (phone !== "" && !/^\+?[\d\s()./-]{6,30}$/.test(phone)) errors.phone = true;
  if (!rules.methods.includes(values.method ?? "")) errors.method = true;
  if (rules.digital && values.digitalConsent !== "yes") errors.digitalConsent = true;
  // The chosen method's provider checks its own fields (a card's, a one-time token made in the browser).
  for (const field of checkoutPartOf(values.method ?? "")?.problems(values, rules.today) ?? []) errors[field as CheckoutErrorField] = true;
  return errors;
}

/** What is kept when the form comes back with an error: everything but what a provider's fields sent once (a card, a one-time token). */
export function keptValues(values: Readonly<Record<string, string>>): Record<string, string> {
  const sentOnce = singleUseFields();
  return Object.fromEntries(Object.entries(values).filter(([field]) => !sentOnce.includes(field)));
}
