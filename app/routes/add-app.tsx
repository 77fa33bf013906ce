import { useLoaderData } from "react-router";
import type { Route } from "./+types/add-app";
import { PageIntro } from "../chrome/page-intro";
import { funnelTextsFor } from "../funnel/content.server";
import { storefrontStateContext } from "../market/request-context";

export function loader({ context }: Route.LoaderArgs) {
  return { steps: funnelTextsFor(context.get(storefrontStateContext).lang).addApp.steps };
}

/** Uses no layout: a single card inviting the visitor to add the shop to the home screen. */
export default function AddAppPage() {
  const { steps } = useLoaderData<typeof loader>();
  return (
    <main id="main" className="page page--narrow">
      <PageIntro messagePrefix="pages.addApp">
        <ol className="add-app__steps">
          {steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </PageIntro>
    </main>
  );
}
