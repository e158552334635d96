// What a form checks before it is sent, said as what to do: each check returns a plain sentence,
// or null when the value will do.

export function checkName(text) {
  const name = String(text || "").trim();
  if (!name) return "Type a display name: the name others see on the leaderboard.";
  if (name.length > 40) return "The display name is too long: at most 40 characters.";
  return null;
}

export function checkHandle(text) {
  const handle = String(text || "").trim().replace(/^@/, "");
  if (!handle) return "Type a handle: the name you sign in with, shown as @handle.";
  if (handle.length < 3 || handle.length > 24) return "A handle has 3 to 24 characters.";
  if (!/^[A-Za-z0-9_-]+$/.test(handle)) return "A handle has letters, digits, _ and - only (no spaces).";
  return null;
}

export function checkPassword(text, fresh = false) {
  const password = String(text || "");
  if (!password) return "Type your password.";
  if (fresh && password.length < 8) return "Choose a password of at least 8 characters.";
  return null;
}

export function checkCode(text, what = "entry code") {
  if (!String(text || "").trim()) return what === "entry code"
    ? "Type the entry code: the organiser gives it with the link."
    : "Type the sign-in code from your organiser's sheet.";
  return null;
}

/** The first complaint of several checks, or null when every one passes. */
export const firstProblem = (...found) => found.find((x) => x) || null;
