import { PageIntro } from "../chrome/page-intro";
import { SiteHeader } from "../chrome/site-header";

export default function FeedbackPage() {
  return (
    <>
      <SiteHeader variant="feedback" />
      <PageIntro messagePrefix="pages.feedback" />
    </>
  );
}
