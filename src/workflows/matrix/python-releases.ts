/** Final release dates of CPython feature versions: a version released after the pin date was a pre-release then. */
const FINAL_RELEASES: Readonly<Record<string, string>> = {
  '3.5': '2015-09-13',
  '3.6': '2016-12-23',
  '3.7': '2018-06-27',
  '3.8': '2019-10-14',
  '3.9': '2020-10-05',
  '3.10': '2021-10-04',
  '3.11': '2022-10-24',
  '3.12': '2023-10-02',
  '3.13': '2024-10-07',
  '3.14': '2025-10-07',
  '3.15': '2026-10-01',
};

/** Whether `major.minor` had no final release yet at `date` (unknown versions: only if newer than the table). */
export function unreleasedAt(numbers: readonly number[], date: Date | undefined): boolean {
  if (date === undefined || numbers.length < 2) return false;
  const key = `${numbers[0]}.${numbers[1]}`;
  const released = FINAL_RELEASES[key];
  if (released !== undefined) return new Date(`${released}T00:00:00Z`).getTime() > date.getTime();
  const newest = Object.keys(FINAL_RELEASES).map((version) => version.split('.').map(Number)).at(-1) ?? [3, 0];
  const [major = 0, minor = 0] = numbers;
  return major > (newest[0] ?? 0) || (major === newest[0] && minor > (newest[1] ?? 0));
}
