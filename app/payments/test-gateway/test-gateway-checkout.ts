import type { CheckoutPart } from "../checkout-part";
import { cardFieldProblems } from "./test-cards";

const problemFields = { number: "cardNumber", expiry: "cardExpiry", cvc: "cardCvc" } as const;

/** The test gateway's card fields sit in the checkout form itself; its bank payment needs none. */
export const testGatewayCheckout: CheckoutPart = {
  provider: "test",
  methods: ["card", "bank"],
  fields: ["cardNumber", "cardExpiry", "cardCvc"],
  singleUseFields: ["cardNumber", "cardExpiry", "cardCvc"],
  problems(values, today) {
    if (values.method !== "card") return [];
    return cardFieldProblems(cardOf(values), today).map((problem) => problemFields[problem]);
  },
  details: cardOf,
};

function cardOf(values: Readonly<Record<string, string>>) {
  return { number: values.cardNumber ?? "", expiry: values.cardExpiry ?? "", cvc: values.cardCvc ?? "" };
}
