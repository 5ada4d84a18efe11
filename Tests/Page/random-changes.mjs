// Random lists and the change sets that turn one into another, as the
// library reports them, for the page's replay tests.

/// A seeded generator of whole numbers below n.
export function seeded(seed) {
  return (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
}

/// A list of up to `longest` ids, a list some of them leave, new ones come
/// into and a few swap places in, and the change set between the two:
/// removals in the old list, insertions in the new, and a move for each
/// item that stays but leaves the order the others keep.
export function randomChange(random, longest, round) {
  const before = Array.from({ length: random(longest) }, (_, index) => `o${index}`);
  const after = before.filter(() => random(4) !== 0);
  for (let count = random(4); count > 0; count--) after.splice(random(after.length + 1), 0, `n${round}-${count}`);
  for (let swaps = random(3); swaps > 0 && after.length > 1; swaps--) {
    const i = random(after.length);
    const j = random(after.length);
    [after[i], after[j]] = [after[j], after[i]];
  }
  const kept = after.filter((id) => before.includes(id));
  const inOrder = new Set();
  let last = -1;
  for (const id of kept) { const at = before.indexOf(id); if (at > last) { inOrder.add(id); last = at; } }
  const change = {
    removed: before.flatMap((id, index) => (after.includes(id) ? [] : [index + 1])),
    inserted: after.flatMap((id, index) => (before.includes(id) ? [] : [index + 1])),
    moved: kept.filter((id) => !inOrder.has(id)).map((id) => ({ from: before.indexOf(id) + 1, to: after.indexOf(id) + 1 })),
    updated: [],
  };
  return { before, after, change };
}
