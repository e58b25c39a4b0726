// What the person did to plants' hearts in this document, by plant: a card that Load More kept from an earlier page
// (app/features/catalog/components/growing-list.ts) is read by no loader again, so its heart would otherwise go on
// showing what the list kept. Only the person who did it sees it: another person signed in in the same tab starts
// with nothing.

let person: string | null = null;
const answers = new Map<string, boolean>();

/** The plant's heart was answered for this person: saved or not. */
export function rememberHeart(userId: string, productId: string, saved: boolean): void {
  if (person !== userId) {
    answers.clear();
    person = userId;
  }
  answers.set(productId, saved);
}

/** Of these plants, which the person saved: `saved` as a list kept it, changed by their answers since. */
export function savedAfterAnswers(userId: string | undefined, productIds: readonly string[], saved: readonly string[]): string[] {
  if (!userId || userId !== person || answers.size === 0) return [...saved];
  const now = new Set(saved);
  for (const id of productIds) {
    const answer = answers.get(id);
    if (answer === true) now.add(id);
    else if (answer === false) now.delete(id);
  }
  return [...now];
}
