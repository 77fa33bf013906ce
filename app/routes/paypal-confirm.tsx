import { PageIntro } from "../chrome/page-intro";
import { FunnelLink } from "../funnel/funnel-link";
import { routePath } from "../funnel/paths";
import { useTranslate } from "../market/translate";

export default function PaypalConfirmPage() {
  const t = useTranslate();
  return (
    <PageIntro messagePrefix="pages.paypalConfirm">
      <FunnelLink to={routePath("thankyou")} className="button button--primary">
        {t("common.continue")}
      </FunnelLink>
    </PageIntro>
  );
}
