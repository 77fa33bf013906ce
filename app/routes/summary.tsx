import { OrderNowButton } from "../chrome/order-now-button";
import { PageIntro } from "../chrome/page-intro";

export default function SummaryPage() {
  return (
    <PageIntro messagePrefix="pages.summary">
      <OrderNowButton />
    </PageIntro>
  );
}
