import { emailPattern } from "../forms/validation";
import { cardFieldProblems } from "../payments/test-gateway/test-cards";
import { normalizePostalCode } from "./postal-codes";

/**
 * The checkout form's fields and rules, the same in the browser (before sending) and on the
 * server (always). Field names are ours; the `autocomplete` tokens are the standard ones.
 */
export const contactFields = ["email", "givenName", "familyName", "addressLine1", "addressLine2", "postalCode", "city", "country", "phone"] as const;
export type ContactField = (typeof contactFields)[number];

export const cardFields = ["cardNumber", "cardExpiry", "cardCvc"] as const;
export type CardField = (typeof cardFields)[number];

export const checkoutFields = [...contactFields, "method", "digitalConsent", ...cardFields, "stripeToken", "token", "bundle", "quotedTotal"] as const;
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
  // The Payment Element's ConfirmationToken, made in the browser just before sending.
  if (values.method === "stripe" && !/^(ctoken|pm)_\w+$/.test(values.stripeToken ?? "")) errors.method = true;
  if (values.method === "card") {
    const problems = cardFieldProblems({ number: values.cardNumber ?? "", expiry: values.cardExpiry ?? "", cvc: values.cardCvc ?? "" }, rules.today);
    if (problems.includes("number")) errors.cardNumber = true;
    if (problems.includes("expiry")) errors.cardExpiry = true;
    if (problems.includes("cvc")) errors.cardCvc = true;
  }
  return errors;
}

const singleUseFields: readonly string[] = [...cardFields, "stripeToken"];

/** What is kept when the form comes back with an error: everything but the card (and its one-time token). */
export function keptValues(values: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([field]) => !singleUseFields.includes(field)));
}
