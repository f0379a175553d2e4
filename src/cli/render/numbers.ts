// Counts with thousands separators, as `toLocaleString('en-US')` writes them. Whole numbers are
// grouped here: the first toLocaleString of a process loads ICU's locale data, a noticeable part
// of a CLI run's end, for a comma.

export function groupDigits(value: number): string {
  if (!Number.isSafeInteger(value)) return value.toLocaleString('en-US');
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
