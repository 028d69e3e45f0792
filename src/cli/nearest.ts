/** Edit distance (insert, delete, substitute, and swapping two neighbours: `compnay`). */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] as number[];
    const above = d[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/**
 * The command a mistyped one most likely meant, or undefined when none is close: within a third
 * of its length (at least 2 edits), so `compnay list` finds `companies list`, `frobnicate` nothing.
 */
export function nearestCommand(typed: string, commands: readonly string[]): string | undefined {
  let best: { command: string; distance: number } | undefined;
  for (const command of commands) {
    const distance = Math.min(
      editDistance(typed, command),
      // Only the first word typed (`sdapi compnay`): compare it with the command's first word.
      typed.includes(' ') ? Number.POSITIVE_INFINITY : editDistance(typed, command.split(' ')[0] ?? ''),
    );
    if (!best || distance < best.distance) best = { command, distance };
  }
  if (!best) return undefined;
  return best.distance <= Math.max(2, Math.floor(typed.length / 3)) ? best.command : undefined;
}
