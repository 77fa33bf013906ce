import { PageIntro } from "../chrome/page-intro";

export default function FeedbackPage() {
  return <PageIntro messagePrefix="pages.feedback" />;
}
