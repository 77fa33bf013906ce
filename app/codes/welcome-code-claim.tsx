import { useEffect, useState } from "react";
import { useTranslate } from "../market/translate";
import { welcomeCodePath, type IssuedWelcomeCode } from "./welcome-code-request";

const storageKey = "vitanor:welcome-code";

function isIssuedCode(value: unknown): value is IssuedWelcomeCode {
  if (typeof value !== "object" || value === null) return false;
  const { code, validUntil } = value as Record<string, unknown>;
  return typeof code === "string" && code !== "" && typeof validUntil === "string" && !Number.isNaN(Date.parse(validUntil));
}

function storedCode(now: number): IssuedWelcomeCode | null {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(storageKey) ?? "null");
    return isIssuedCode(stored) && Date.parse(stored.validUntil) > now ? stored : null;
  } catch {
    return null;
  }
}

// One request for the page's life: opening the section twice, or while the first answer is on
// its way, does not issue a second code. A failed request is forgotten, so "Try again" asks anew.
let request: Promise<IssuedWelcomeCode> | null = null;

async function issueCode(): Promise<IssuedWelcomeCode> {
  const response = await fetch(welcomeCodePath, { method: "POST", headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`The welcome code was refused: ${response.status}`);
  const issued: unknown = await response.json();
  if (!isIssuedCode(issued)) throw new Error("The welcome code's answer is not one");
  try {
    sessionStorage.setItem(storageKey, JSON.stringify(issued));
  } catch {
    // Without storage the code stays for this page view; a reload would issue another.
  }
  return issued;
}

/**
 * The visitor's welcome code: the one this tab was given (kept in sessionStorage, so reopening
 * the dialog shows the same code), or a new one issued now.
 */
export function claimWelcomeCode(now = Date.now()): Promise<IssuedWelcomeCode> {
  const stored = storedCode(now);
  if (stored) return Promise.resolve(stored);
  if (!request) {
    request = issueCode();
    request.catch(() => {
      request = null;
    });
  }
  return request;
}

type ClaimState = { status: "pending" } | { status: "failed" } | { status: "issued"; code: string };

/**
 * The claim section's code. It is issued when the section opens, never rendered on the server:
 * until it arrives a neutral line says it is being prepared, and a failure says so with a way to
 * try again, never a made-up code.
 */
export function WelcomeCodeClaim() {
  const t = useTranslate();
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<ClaimState>({ status: "pending" });
  useEffect(() => {
    let current = true;
    claimWelcomeCode().then(
      ({ code }) => current && setState({ status: "issued", code }),
      () => current && setState({ status: "failed" }),
    );
    return () => {
      current = false;
    };
  }, [attempt]);

  if (state.status === "failed") {
    return (
      <p className="info-modal__coupon" role="alert" data-testid="welcome-code-failed">
        {t("modal.welcomeCodeFailed")}{" "}
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setState({ status: "pending" });
            setAttempt((n) => n + 1);
          }}
        >
          {t("modal.retry")}
        </button>
      </p>
    );
  }
  return (
    <p className="info-modal__coupon" role="status">
      {state.status === "issued" ? (
        <>
          {t("modal.couponLabel")}: <strong data-testid="welcome-code">{state.code}</strong>
        </>
      ) : (
        <span data-testid="welcome-code-pending">{t("modal.welcomeCodePending")}</span>
      )}
    </p>
  );
}

