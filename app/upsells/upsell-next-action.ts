import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { finishInBrowser, type ProviderNextAction } from "../payments/browser-next-action";

/**
 * An upsell charged to the checkout's card may need 3-D Secure that its provider leaves to the
 * provider's script: the upsell page has no component of the provider's, so what finishes the
 * challenge (in the provider's modal) is loaded only now, and the return path asks the provider on
 * the server how the payment ended. True while the challenge is open.
 */
export function useBrowserNextAction(nextAction: ProviderNextAction | undefined): boolean {
  const navigate = useNavigate();
  const [finished, setFinished] = useState<ProviderNextAction>();
  useEffect(() => {
    if (!nextAction) return;
    void finishInBrowser(nextAction)
      .catch(() => undefined)
      .then(() => {
        setFinished(nextAction);
        void navigate(nextAction.returnPath);
      });
  }, [nextAction, navigate]);
  return nextAction !== undefined && finished !== nextAction;
}
