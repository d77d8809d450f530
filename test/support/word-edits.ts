// One-word edits of a message, for the tests that prove a matcher places no edited line wrongly:
// each word misspelt, dropped, or swapped with the next.
export function wordEdits(text: string, skip: (word: string) => boolean = () => false): string[] {
  const words = text.split(" ");
  return words.flatMap((word, i) => {
    if (skip(word)) return [];
    const variants = [
      [...words.slice(0, i), word.length > 3 ? `${word.slice(0, -2)}xq` : "zzz", ...words.slice(i + 1)],
      [...words.slice(0, i), ...words.slice(i + 1)],
      i + 1 < words.length ? [...words.slice(0, i), words[i + 1]!, word, ...words.slice(i + 2)] : undefined,
    ];
    return variants.filter((v): v is string[] => v !== undefined).map((v) => v.join(" "));
  });
}
