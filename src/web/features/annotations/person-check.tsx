// The check that a reader who responds without an account is a person at a browser: ALTCHA's
// widget, bundled with Prism (no third party is asked), solves a challenge from /api/challenge
// as soon as the dialog shows it. Its work runs in a worker that is a script of this origin, as
// the site's CSP allows ('self'; the widget's default build makes its workers from blob: URLs,
// which it does not), and it is loaded with the dialog's form only for those it checks.
import "altcha/external";
import "altcha/altcha.css";
import type {} from "altcha/types/react";
import Pbkdf2Worker from "altcha/workers/pbkdf2?worker";
import { type Ref, useEffect, useImperativeHandle, useRef } from "react";

$altcha.algorithms.set("PBKDF2/SHA-256", () => new Pbkdf2Worker());
// Its words in the dialog's voice (the rest, for challenges Prism never sends, stay ALTCHA's).
$altcha.i18n.set("en", {
  ...$altcha.i18n.get("en"),
  label: "Confirm you're a person",
  verifying: "Confirming you're a person...",
  verified: "Confirmed: you're a person",
  error: "We couldn't confirm you're a person. Try again.",
  expired: "The check expired. Try again.",
  verificationRequired: "Please confirm you're a person.",
  waitAlert: "Still confirming you're a person. Please wait.",
});

const configuration = JSON.stringify({ hideFooter: true, hideLogo: true });

/** What the form asks of the check. */
export interface PersonCheckHandle {
  /**
   * ALTCHA's payload once a challenge is solved: the one solved already, the one being solved, or
   * a new one when the last expired or failed; null when none could be.
   */
  proof(): Promise<string | null>;
  /** Solves a new challenge: the last was sent with a response that was refused. */
  renew(): void;
}

interface Status {
  state: string;
  payload: string | null;
}

export function PersonCheck({ ref }: { ref: Ref<PersonCheckHandle> }) {
  const widget = useRef<HTMLElementTagNameMap["altcha-widget"]>(null);
  const status = useRef<Status>({ state: "unverified", payload: null });
  const waiting = useRef<((payload: string | null) => void)[]>([]);

  useEffect(() => {
    const element = widget.current;
    if (!element) return;
    const onChange = (event: Event) => {
      const { state, payload } = (event as CustomEvent<Status>).detail;
      status.current = { state, payload };
      if (state === "verifying") return;
      const settled = state === "verified" ? payload : null;
      for (const resolve of waiting.current.splice(0)) resolve(settled);
    };
    element.addEventListener("statechange", onChange);
    return () => element.removeEventListener("statechange", onChange);
  }, []);

  useImperativeHandle(
    ref,
    () => ({
      async proof() {
        const { state, payload } = status.current;
        if (state === "verified") return payload;
        if (state === "verifying") {
          return new Promise<string | null>((resolve) => waiting.current.push(resolve));
        }
        return (await widget.current?.verify())?.payload ?? null;
      },
      renew() {
        widget.current?.reset();
        void widget.current?.verify();
      },
    }),
    [],
  );

  return (
    <altcha-widget
      ref={widget}
      // Its checkbox as big as the site's other controls: 24 px, and 44 px to a finger.
      className="[--altcha-checkbox-size:24px] pointer-coarse:[--altcha-checkbox-size:44px]"
      challenge="/api/challenge"
      auto="onload"
      language="en"
      configuration={configuration}
    />
  );
}
