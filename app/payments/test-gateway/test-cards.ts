/**
 * The test gateway's cards (docs/architecture.md, 'Test mode and live mode'): the numbers mirror Stripe's test cards. Any future expiry
 * and any three-digit CVC are accepted; any other number is refused as not a test card.
 */
export type TestCardKind = "succeeds" | "declined" | "insufficientFunds" | "authenticateAlways" | "authenticateFirst";

export const testCards: Readonly<Record<string, TestCardKind>> = {
  "4242424242424242": "succeeds",
  "4000000000000002": "declined",
  "4000000000009995": "insufficientFunds",
  "4000002760003184": "authenticateAlways",
  "4000002500003155": "authenticateFirst",
};

export function cardDigits(typed: string): string {
  return typed.replace(/[\s-]/g, "");
}

export function testCardKind(typed: string): TestCardKind | null {
  return testCards[cardDigits(typed)] ?? null;
}

export type CardFieldProblem = "number" | "expiry" | "cvc";

/** Checks the card fields as a provider's element would before anything is sent. */
export function cardFieldProblems(fields: { number: string; expiry: string; cvc: string }, today: Date): CardFieldProblem[] {
  const problems: CardFieldProblem[] = [];
  if (!/^\d{12,19}$/.test(cardDigits(fields.number))) problems.push("number");
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(fields.expiry);
  const month = Number(expiry?.[1]);
  const year = expiry?.[2]?.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry?.[2]);
  const thisMonth = today.getUTCFullYear() * 12 + today.getUTCMonth();
  if (!expiry || month < 1 || month > 12 || year * 12 + (month - 1) < thisMonth) problems.push("expiry");
  if (!/^\d{3}$/.test(fields.cvc.trim())) problems.push("cvc");
  return problems;
}
