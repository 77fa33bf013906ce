import { data, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/withdraw";
import { commerceTextsFor } from "../orders/commerce-texts.server";
import { DocumentMeta } from "../market/document-meta";
import { withdrawalFields, WithdrawalForm, type WithdrawalStep } from "../orders/withdrawal-form";
import { readFormBody } from "../forms/form-body.server";
import { formValues, validateWithdrawal } from "../forms/validation";
import { formatDateTime } from "../market/date-time";
import { storefrontStateContext } from "../market/request-context";
import { normalizeOrderNumber } from "../orders/order-number";
import { receiveWithdrawal } from "../orders/withdrawal.server";
import { returnAddressFor } from "../orders/returns.server";
import { store } from "../store/store.server";

export function loader({ context }: Route.LoaderArgs) {
  const { market, lang } = context.get(storefrontStateContext);
  return { texts: commerceTextsFor(lang).withdraw, returnAddress: returnAddressFor(market) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { market, lang } = context.get(storefrontStateContext);
  const form = await readFormBody(request);
  const values = formValues(form, withdrawalFields);
  const errors = validateWithdrawal(values);
  const cleaned: Record<string, string> = { ...values, orderNumber: normalizeOrderNumber(values.orderNumber ?? "") ?? values.orderNumber ?? "" };
  const noStore = { "Cache-Control": "private, no-store" };
  if (Object.keys(errors).length > 0 || form.get("intent") === "change") {
    return data<WithdrawalStep>({ step: "form", values, errors }, { status: Object.keys(errors).length > 0 ? 400 : 200, headers: noStore });
  }
  if (form.get("intent") !== "confirm") return data<WithdrawalStep>({ step: "review", values: cleaned }, { headers: noStore });
  const receipt = await receiveWithdrawal(store().db, { name: cleaned.name ?? "", orderNumber: cleaned.orderNumber ?? "", email: cleaned.email ?? "", locale: lang, market: market.country });
  return data<WithdrawalStep>(
    { step: "received", values: cleaned, reference: receipt.reference, receivedAt: formatDateTime(receipt.receivedAt, market) },
    { headers: noStore },
  );
}

/** The withdrawal function: reachable from every footer, without an account. */
export default function WithdrawPage() {
  const { texts, returnAddress } = useLoaderData<typeof loader>();
  const result = useActionData<WithdrawalStep>();
  return (
    <section className="page-intro">
      <DocumentMeta title={texts.title} />
      <h1>{texts.heading}</h1>
      <p className="page-intro__lead">{texts.intro}</p>
      <WithdrawalForm texts={texts} returnAddress={returnAddress} state={result ?? { step: "form", values: {}, errors: {} }} />
    </section>
  );
}
