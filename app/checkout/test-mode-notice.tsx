import { useTranslate } from "../market/translate";

/** In test mode every checkout, upsell and thank-you page says so (docs/architecture.md, 'Test mode and live mode'). */
export function TestModeNotice() {
  const t = useTranslate();
  return (
    <p className="test-mode" role="note" data-testid="test-mode">
      {t("testMode.notice")}
    </p>
  );
}
