// A roster file read as a spreadsheet saves it (RFC 4180: quoted fields may hold commas, quotes and
// line breaks), and written back a part at a time: the roster is made in parts of a few lines.

/** The file's records, each a list of fields; a final line break makes no empty record. */
export function parseCsv(text) {
  const src = text.replace(/^\uFEFF/, "");
  const rows = [];
  let row = [];
  let field = "";
  let quoted = false;
  let i = 0;
  const endRow = () => {
    row.push(field);
    rows.push(row);
    row = [];
    field = "";
  };
  while (i < src.length) {
    const c = src[i];
    if (quoted) {
      if (c === '"' && src[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" || c === "\n") {
      if (c === "\r" && src[i + 1] === "\n") i += 1;
      endRow();
    } else field += c;
    i += 1;
  }
  if (field !== "" || row.length) endRow();
  return rows;
}

const cell = (value) => `"${String(value).replace(/"/g, '""')}"`;

/** Records as CSV text, every field quoted. */
export const toCsv = (rows) => rows.map((r) => r.map(cell).join(",")).join("\n") + "\n";
