import { useLoaderData } from "react-router";
import type { Route } from "./+types/review-policy";
import { DocumentMeta } from "../market/document-meta";
import { storefrontStateContext } from "../market/request-context";
import { reviewTextsFor } from "../reviews/review-texts.server";

export function loader({ context }: Route.LoaderArgs) {
  return { policy: reviewTextsFor(context.get(storefrontStateContext).lang).policy };
}

/** How reviews are checked (UCPD Annex I 23b): linked from every review section. */
export default function ReviewPolicyPage() {
  const { policy } = useLoaderData<typeof loader>();
  return (
    <article className="page-intro review-policy">
      <DocumentMeta title={policy.title} />
      <h1>{policy.title}</h1>
      <p className="page-intro__lead">{policy.intro}</p>
      <ol>
        {policy.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <h2>{policy.rulesTitle}</h2>
      <ul>
        {policy.rules.map((rule) => (
          <li key={rule}>{rule}</li>
        ))}
      </ul>
      <p>{policy.outro}</p>
    </article>
  );
}
