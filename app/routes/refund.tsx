import { PageIntro } from "../chrome/page-intro";

export default function RefundPage() {
  return <PageIntro messagePrefix="pages.refund" />;
}
