import { PageIntro } from "../chrome/page-intro";

export default function ThankYouPage() {
  return <PageIntro messagePrefix="pages.thankYou" />;
}
