// Importing a class (a CSV file, or names typed one a line): the whole roster checked first, every
// bad line listed at once in plain words; then made in parts of 20, a progress bar saying how far.
// The codes made go to this tab's sheet, and the page to the printable slips.

import { api } from "../lib/api.js";
import { el, explain, notify } from "../lib/ui.js";
import { parseCsv, toCsv } from "./csv.js";
import { addToSheet } from "./sheet.js";

const PART = 20; // lines a request: each code is hashed slowly on purpose

const quoted = (s) => `\u201c${s}\u201d`;

/** A server's reason for a bad line, in the words a teacher reads. */
export function plainReason(reason) {
  let m = reason.match(/^the handle '(.*)' is taken$/);
  if (m) return `the handle ${quoted(m[1])} is already someone else's: choose another, or leave it empty`;
  m = reason.match(/^the handle '(.*)' is on an earlier line too$/);
  if (m) return `the handle ${quoted(m[1])} is on an earlier line too: each handle once`;
  m = reason.match(/^the handle '(.*)' is not/);
  if (m) return `the handle ${quoted(m[1])} must be 3 to 24 small letters, digits, - or _`;
  if (reason.startsWith("the name must be")) return "the name is empty, or longer than 40 characters, or has characters that cannot be shown";
  if (reason === "the line is blank") return "the line is empty: delete it";
  m = reason.match(/^(\d+) fields where the header has (\d+)$/);
  if (m) return `it has ${m[1]} cells where the header has ${m[2]}: a comma too many?`;
  return reason;
}

/** The roster as checked and made: the CSV file's text and records, or the typed names. */
function readInput(file, names) {
  if (file) {
    return file.text().then((text) => {
      const [header, ...rows] = parseCsv(text);
      return { csv: true, text, header, rows, lineOf: (n) => n };
    });
  }
  const typed = names.value.split("\n").map((name, i) => ({ name: name.trim(), line: i + 1 })).filter((x) => x.name);
  return Promise.resolve({ csv: false, rows: typed.map((x) => x.name), lineOf: (n) => typed[n - 1]?.line ?? n });
}

const bodyOf = (input, rows) => (input.csv
  ? [toCsv([input.header, ...rows]), { type: "text/csv" }]
  : [{ names: rows }, {}]);

export function rosterPanel(id) {
  const file = el("input", { type: "file", accept: ".csv,text/csv", "data-field": "roster-file" });
  const names = el("textarea", { "data-field": "roster-names", rows: 6, placeholder: "One name a line:\nAnn Smith\nBo Jones\nCy Lee" });
  const problems = el("div", { class: "roster-problems", "data-field": "roster-problems", role: "alert", hidden: true });
  const bar = el("progress", { max: 1, value: 0, "data-field": "roster-progress" });
  const said = el("span", { "data-field": "roster-progress-text" });
  const progress = el("p", { class: "roster-progress", "aria-live": "polite", hidden: true }, bar, " ", said);
  const go = el("button", { class: "btn primary", type: "submit", "data-action": "import" }, "Check and create the members");

  function showProblems(title, items) {
    problems.replaceChildren(el("p", {}, el("b", {}, title)),
      el("ul", {}, items.map((text) => el("li", { "data-field": "roster-problem" }, text))));
    problems.hidden = false;
  }

  /** A refused roster: each bad line its own item, counted as the teacher's file or list counts. */
  function refused(err, input, offset = 0) {
    const lines = err.extra && Array.isArray(err.extra.lines) ? err.extra.lines : null;
    if (!lines) return showProblems("The roster could not be read:", [explain(err)]);
    const where = input.csv ? "Lines are counted from the first name, after the header line." : "";
    showProblems(`${lines.length === 1 ? "One line needs" : `${lines.length} lines need`} fixing; nothing was created. ${where}`,
      lines.map((x) => `Line ${input.lineOf(x.line + offset)}: ${plainReason(x.reason)}.`));
  }

  async function makeInParts(input, total) {
    const made = [];
    let signinUrl = null;
    bar.max = total;
    const show = () => {
      bar.value = made.length;
      said.textContent = `Created ${made.length} of ${total}`;
    };
    progress.hidden = false;
    show();
    for (let start = 0; start < input.rows.length; start += PART) {
      try {
        const out = await api.admin("POST", `/api/clubs/${id}/roster`, ...bodyOf(input, input.rows.slice(start, start + PART)));
        made.push(...out.members);
        signinUrl = out.signin_url || signinUrl;
        show();
      } catch (err) {
        if (made.length) addToSheet(id, made, signinUrl);
        refused(err, input, start);
        if (made.length) {
          problems.append(el("p", {}, `The first ${made.length} were created and their codes are on the code sheet. `,
            "Delete their lines, fix the others and import the rest."));
        }
        return null;
      }
    }
    addToSheet(id, made, signinUrl);
    return made;
  }

  const form = el("form", { class: "panel", "data-form": "roster", id: "club-import" },
    el("h2", {}, "Import members"),
    el("p", { class: "muted" }, "Each pupil gets an account with a handle and a sign-in code, printed on a slip. ",
      "A CSV file needs a ", el("code", {}, "name"), " column, and may have a ", el("code", {}, "handle"), " column. ",
      "The whole list is checked first: nothing is created until every line is right."),
    el("label", { class: "field" }, el("span", {}, "A CSV file"), file),
    el("label", { class: "field" }, el("span", {}, "or the names, one a line"), names),
    problems, progress, el("p", {}, go));

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    problems.hidden = true;
    progress.hidden = true;
    const picked = file.files && file.files[0];
    if (!picked && !names.value.trim()) return showProblems("Nothing to import:", ["choose a CSV file or type the names, one a line."]);
    go.disabled = true;
    try {
      const input = await readInput(picked, names);
      const [body, options] = input.csv ? [input.text, { type: "text/csv" }] : [{ names: input.rows }, {}];
      let checked;
      try {
        checked = await api.admin("POST", `/api/clubs/${id}/roster?check=true`, body, options);
      } catch (err) {
        return refused(err, input);
      }
      const made = await makeInParts(input, checked.lines);
      if (!made) return;
      notify(`${made.length} members created: print their slips`, "ok");
      location.hash = `#/club/${id}/codes`;
    } finally {
      go.disabled = false;
    }
  });
  return form;
}
