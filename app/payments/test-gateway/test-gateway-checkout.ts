import type { CheckoutPart } from "../checkout-part";
import { cardFieldProblems } from "./test-cards";

const problemFields = { number: "cardNumber", expiry: "cardExpiry", cvc: "cardCvc" } as const;

/**
 * The test gateway's card fields sit in the checkout form itself; its bank payment needs none. It
 * stands in for the provider that takes the markets' cards while that one is not running.
 */
export const testGatewayCheckout: CheckoutPart = {
  // `testGatewayId`, written out: this module runs in the browser too, where the setup's content is not needed.
  provider: "test",
  methods: ["card", "bank"],
  fields: ["cardNumber", "cardExpiry", "cardCvc"],
  problems(values, today) {
    if (values.method !== "card") return [];
    return cardFieldProblems(cardOf(values), today).map((problem) => problemFields[problem]);
  },
  server: import.meta.env.SSR
    ? {
        offeredMethods: ({ content, running }) => (running.has(content.card?.provider ?? "") ? [] : ["card", "bank"]),
        singleUseFields: ["cardNumber", "cardExpiry", "cardCvc"],
        details: cardOf,
      }
    : undefined,
};

function cardOf(values: Readonly<Record<string, string>>) {
  return { number: values.cardNumber ?? "", expiry: values.cardExpiry ?? "", cvc: values.cardCvc ?? "" };
}
