import { useMatches } from "react-router";
import { NextStepLink } from "../chrome/next-step-link";
import { PageIntro } from "../chrome/page-intro";
import { useTranslate } from "../market/translate";

/** The product page's copy is chosen by route: /hypnotherapyy is an A/B twin of /hypnotherapy. */
function productKey(routeName: string): string {
  const plain = routeName.replace(/-2$/, "");
  return plain === "hypnotherapyy" ? "hypnotherapy" : plain;
}

export default function ProductPage() {
  const t = useTranslate();
  const routeName = useMatches().at(-1)?.id ?? "";
  return (
    <PageIntro messagePrefix={`pages.product.${productKey(routeName)}`}>
      <NextStepLink to="offer" label={t("common.orderNow")} testId="next-step" />
    </PageIntro>
  );
}
