// A small RFC 4180 reader for tests: fields separated by commas, records by CRLF (or LF), a
// quoted field may hold commas, quotes (doubled) and line breaks. Throws on a malformed quote.
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let i = 0;
  let quoted = false;
  let started = false;
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (ch === '"') {
        quoted = false;
        i++;
        const next = text[i];
        if (next !== undefined && next !== "," && next !== "\r" && next !== "\n") throw new Error(`text after a closing quote at ${i}`);
      } else {
        field += ch;
        i++;
      }
      continue;
    }
    if (ch === '"') {
      if (field !== "") throw new Error(`a quote inside an unquoted field at ${i}`);
      quoted = true;
      started = true;
      i++;
    } else if (ch === ",") {
      record.push(field);
      field = "";
      started = true;
      i++;
    } else if (ch === "\r" || ch === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      started = false;
      i += ch === "\r" && text[i + 1] === "\n" ? 2 : 1;
    } else {
      field += ch;
      started = true;
      i++;
    }
  }
  if (quoted) throw new Error("an unterminated quoted field");
  if (started || field !== "") {
    record.push(field);
    records.push(record);
  }
  return records;
}

/** Records as objects keyed by the header line. */
export function csvObjects(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) return [];
  for (const r of rows) if (r.length !== header.length) throw new Error(`a record of ${r.length} fields under a header of ${header.length}`);
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]!])));
}
