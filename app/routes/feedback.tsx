import { useLoaderData } from "react-router";
import type { Route } from "./+types/feedback";
import { PageIntro } from "../chrome/page-intro";
import { SiteHeader } from "../chrome/site-header";
import { FeedbackForm, feedbackFields } from "../forms/feedback-form";
import { handleFormPost } from "../forms/form-action.server";
import { validateFeedback } from "../forms/validation";
import { funnelTextsFor } from "../funnel/content.server";
import { storefrontStateContext } from "../market/request-context";
import { storeFeedback } from "../orders/submissions.server";
import { store } from "../store/store.server";

export function loader({ context }: Route.LoaderArgs) {
  return { form: funnelTextsFor(context.get(storefrontStateContext).lang).feedbackForm };
}

export function action({ request, context }: Route.ActionArgs) {
  const { lang, market } = context.get(storefrontStateContext);
  return handleFormPost(request, feedbackFields, validateFeedback, (values) => storeFeedback(store().db, values, { locale: lang, market: market.country }));
}

export default function FeedbackPage() {
  const { form } = useLoaderData<typeof loader>();
  return (
    <>
      <SiteHeader variant="feedback" />
      <PageIntro messagePrefix="pages.feedback">
        <FeedbackForm texts={form} />
      </PageIntro>
    </>
  );
}
