import { useEffect, useRef } from "react";
import { useNavigation } from "react-router";

/**
 * Empties a form once its submission succeeded. A submission to the page itself keeps the page mounted, and
 * with it what was typed or chosen: passwords would stay filled in, a chosen picture would go up again with
 * the next Save. Success is a submission with this `intent` that ended without a failure (a redirect leaves
 * no action data). Fields return to their defaults, which the reloaded page data has updated by then.
 */
export function useResetOnSuccess(intent: string, failed: boolean) {
  const navigation = useNavigation();
  const form = useRef<HTMLFormElement>(null);
  const sending = navigation.formData?.get("intent") === intent;
  const wasSending = useRef(false);
  useEffect(() => {
    if (wasSending.current && !sending && !failed) form.current?.reset();
    wasSending.current = sending;
  }, [sending, failed]);
  return form;
}
