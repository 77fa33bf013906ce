import { useLoaderData } from "react-router";
import type { Route } from "./+types/terms";
import { LegalTextSection } from "../legal/legal-text-section";
import { legalTextsFor } from "../legal/legal-texts.server";
import { PageIntro } from "../chrome/page-intro";
import { storefrontStateContext } from "../market/request-context";

export function loader({ context }: Route.LoaderArgs) {
  return { terms: legalTextsFor(context.get(storefrontStateContext).lang)?.termsOfService };
}

/** The terms and conditions of the visitor's market, in its language. */
export default function TermsPage() {
  const { terms } = useLoaderData<typeof loader>();
  return (
    <PageIntro messagePrefix="pages.terms">
      {/* The page heading is the terms' own title: no second heading repeats it. */}
      <LegalTextSection text={terms} />
    </PageIntro>
  );
}
