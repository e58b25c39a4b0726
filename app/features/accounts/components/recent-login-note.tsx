import { messages } from "#common/shared/messages.ts";
import { FormMessage } from "../../../shared/ui/form-message.tsx";

const ac = messages.accountChanges;

/** For an account without a password: that this change needs a recent login, and whether this one is. */
export function RecentLoginNote({ proof }: { proof: { recent: boolean; withinMinutes: number } }) {
  return proof.recent ? (
    <FormMessage message={ac.recentSignInNote(proof.withinMinutes)} tone="success" />
  ) : (
    <FormMessage message={ac.freshSignInNeeded(proof.withinMinutes)} />
  );
}
