import { useLoaderData } from "react-router";
import type { Route } from "./+types/refund";
import { LegalTextSection } from "../legal/legal-text-section";
import { legalTextsFor } from "../legal/legal-texts.server";
import { PageIntro } from "../chrome/page-intro";
import { handleFormPost } from "../forms/form-action.server";
import { RefundForm, refundFields } from "../forms/refund-form";
import { validateRefund } from "../forms/validation";
import { funnelTextsFor } from "../funnel/content.server";
import { storefrontStateContext } from "../market/request-context";
import { storeRefundRequest } from "../orders/submissions.server";
import { store } from "../store/store.server";

export function loader({ context }: Route.LoaderArgs) {
  const { lang } = context.get(storefrontStateContext);
  return { refund: legalTextsFor(lang)?.refund, form: funnelTextsFor(lang).refundForm };
}

export function action({ request, context }: Route.ActionArgs) {
  const { lang, market } = context.get(storefrontStateContext);
  return handleFormPost(request, refundFields, validateRefund, (values) => storeRefundRequest(store().db, values, { locale: lang, market: market.country }));
}

export default function RefundPage() {
  const { refund, form } = useLoaderData<typeof loader>();
  return (
    <PageIntro messagePrefix="pages.refund">
      <LegalTextSection text={refund} headingId="refund-terms-title" />
      <RefundForm texts={form} />
    </PageIntro>
  );
}
