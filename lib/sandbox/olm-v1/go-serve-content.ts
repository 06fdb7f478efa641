// The request headers Go's http.ServeContent reads before it answers (net/http fs.go of the Go that
// builds catalogd: checkPreconditions, parseRange, ParseTime), read the same way, so that the
// sandbox's catalogd refuses, skips and narrows exactly where the real one does. The content has
// no ETag, which decides every If-Match / If-None-Match / If-Range outcome below.
// docs/olm-v1/catalogs.md#the-content-api.

type Headers = Record<string, string | string[] | undefined>;
const one = (h: Headers, name: string): string => {
  const v = h[name];
  return (Array.isArray(v) ? v[0] : v) ?? '';
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAYS = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MON = '(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const CLOCK = '(\\d\\d):(\\d\\d):(\\d\\d)';
// Go's http.ParseTime tries exactly these three layouts: RFC 1123 with GMT, RFC 850, asctime.
// JavaScript's Date.parse reads far more (ISO dates, other zones), which Go ignores as unreadable.
const RFC1123 = new RegExp(`^${DAYS}, (\\d\\d) ${MON} (\\d{4}) ${CLOCK} GMT$`);
const RFC850 = new RegExp(`^${LONG_DAYS}, (\\d\\d)-${MON}-(\\d\\d) ${CLOCK} [A-Z]{3,5}$`);
const ASCTIME = new RegExp(`^${DAYS} ${MON} ([ \\d]\\d) ${CLOCK} (\\d{4})$`);

function utc(year: number, month: string, day: number, h: string, m: string, s: string): number | undefined {
  const [hh, mm, ss] = [Number(h), Number(m), Number(s)];
  if (hh > 23 || mm > 59 || ss > 59 || day < 1) return undefined;
  const mo = MONTHS.indexOf(month);
  const t = Date.UTC(year, mo, day, hh, mm, ss);
  // Go refuses a day past the month's end (31 Feb) rather than rolling it over.
  return new Date(t).getUTCDate() === day ? t / 1000 : undefined;
}

/** Go's http.ParseTime, in Unix seconds; undefined where Go answers an error. */
export function parseHttpTime(v: string): number | undefined {
  let m = RFC1123.exec(v);
  if (m) return utc(Number(m[3]), m[2]!, Number(m[1]), m[4]!, m[5]!, m[6]!);
  m = RFC850.exec(v);
  // A two-digit year is 1969–2068 in Go's time package. Any zone abbreviation reads as offset
  // zero there unless it is the machine's own zone; catalogd runs in UTC.
  if (m) return utc(Number(m[3]) + (Number(m[3]) >= 69 ? 1900 : 2000), m[2]!, Number(m[1]), m[4]!, m[5]!, m[6]!);
  m = ASCTIME.exec(v);
  if (m) return utc(Number(m[6]), m[1]!, Number(m[2]!.trim()), m[3]!, m[4]!, m[5]!);
  return undefined;
}

/** Go's scanETag: the first entity tag of a list and what follows it, or none when malformed. */
function scanETag(s: string): [string, string] | undefined {
  s = s.trim();
  const start = s.startsWith('W/') ? 2 : 0;
  if (s.length - start < 2 || s[start] !== '"') return undefined;
  for (let i = start + 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) return [s.slice(0, i + 1), s.slice(i + 1)];
    if (!(c === 0x21 || (c >= 0x23 && c <= 0x7e) || c >= 0x80)) return undefined;
  }
  return undefined;
}

/** Whether an If-Match / If-None-Match list holds `*` (true), only tags (false) or ends malformed. */
function listHasStar(v: string): boolean {
  let rest = v;
  for (;;) {
    rest = rest.trim();
    if (rest === '') return false;
    if (rest[0] === ',') {
      rest = rest.slice(1);
      continue;
    }
    if (rest[0] === '*') return true;
    const tag = scanETag(rest);
    if (!tag) return false;
    rest = tag[1];
  }
}

export type Precondition = { answer: 412 } | { answer: 304 } | { answer: 'serve'; range: string };

/**
 * Go's checkPreconditions against content without an ETag, modified at `modified` (Unix seconds):
 * a list of tags in If-Match never matches (412) and one in If-None-Match always does not, so a
 * date is compared only where no tag header decides; `*` matches anything that exists.
 */
export function checkPreconditions(method: string, h: Headers, modified: number): Precondition {
  const getOrHead = method === 'GET' || method === 'HEAD';
  const im = one(h, 'if-match');
  let refused = im !== '' && !listHasStar(im);
  if (im === '') {
    const ius = one(h, 'if-unmodified-since');
    const t = ius === '' ? undefined : parseHttpTime(ius);
    refused = t !== undefined && modified > t;
  }
  if (refused) return { answer: 412 };
  const inm = one(h, 'if-none-match');
  if (inm !== '') {
    if (listHasStar(inm)) return { answer: getOrHead ? 304 : 412 };
  } else if (getOrHead) {
    const ims = one(h, 'if-modified-since');
    const t = ims === '' ? undefined : parseHttpTime(ims);
    if (t !== undefined && modified <= t) return { answer: 304 };
  }
  let range = one(h, 'range');
  if (range !== '' && getOrHead) {
    const ir = one(h, 'if-range');
    // If-Range with a tag never matches (there is none); with a date, only the exact second does.
    if (ir !== '' && (scanETag(ir) || parseHttpTime(ir) !== modified)) range = '';
  }
  return { answer: 'serve', range };
}

const INT64_MAX = 2n ** 63n - 1n;

export interface ByteRange {
  start: number;
  length: number;
}

/**
 * Go's parseRange: the ranges asked for, or its error's text: `invalid range` when the header is
 * malformed anywhere, `invalid range: failed to overlap` when every range starts past the end.
 */
export function parseRange(
  s: string,
  size: number,
): ByteRange[] | 'invalid range' | 'invalid range: failed to overlap' {
  if (s === '') return [];
  if (!s.startsWith('bytes=')) return 'invalid range';
  const ranges: ByteRange[] = [];
  let noOverlap = false;
  // strconv.ParseInt: an optional sign, digits, and an error past int64 rather than a rounded float.
  const int = (v: string) => (/^[+-]?\d+$/.test(v) && BigInt(v) <= INT64_MAX ? Number(v) : NaN);
  for (const raw of s.slice(6).split(',')) {
    const ra = raw.trim();
    if (ra === '') continue;
    const dash = ra.indexOf('-');
    if (dash < 0) return 'invalid range';
    const [start, end] = [ra.slice(0, dash).trim(), ra.slice(dash + 1).trim()];
    if (start === '') {
      // A suffix: the last `end` bytes. `bytes=-0` is a range of no bytes at the end, not an error.
      const i = end === '' || end[0] === '-' ? NaN : int(end);
      if (!(i >= 0)) return 'invalid range';
      const n = Math.min(i, size);
      ranges.push({ start: size - n, length: n });
      continue;
    }
    const i = int(start);
    if (!(i >= 0)) return 'invalid range';
    if (i >= size) {
      noOverlap = true;
      continue;
    }
    if (end === '') {
      ranges.push({ start: i, length: size - i });
      continue;
    }
    const j = int(end);
    if (Number.isNaN(j) || i > j) return 'invalid range';
    ranges.push({ start: i, length: Math.min(j, size - 1) - i + 1 });
  }
  if (noOverlap && ranges.length === 0) return 'invalid range: failed to overlap';
  return ranges;
}
