/**
 * Measures two things in turn for `rounds` rounds, the order alternating (A then B, B then A, …): a machine whose
 * speed drifts during a bench (this one's does, by up to 2× within minutes) moves both alike within a round, so each
 * round's ratio is a fair one where two whole runs made one after the other are not. Answers each side's
 * measurements, round by round.
 */
export async function inTurn<T>(rounds: number, measureA: () => Promise<T>, measureB: () => Promise<T>): Promise<{ a: T[]; b: T[] }> {
  const a: T[] = [];
  const b: T[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      a.push(await measureA());
      b.push(await measureB());
    } else {
      b.push(await measureB());
      a.push(await measureA());
    }
  }
  return { a, b };
}
