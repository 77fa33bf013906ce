import { OrderNowButton } from "../chrome/order-now-button";
import { PageIntro } from "../chrome/page-intro";

export default function HomePage() {
  return (
    <PageIntro messagePrefix="pages.home">
      <OrderNowButton />
    </PageIntro>
  );
}
