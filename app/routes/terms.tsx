import { PageIntro } from "../chrome/page-intro";

export default function TermsPage() {
  return <PageIntro messagePrefix="pages.terms" />;
}
