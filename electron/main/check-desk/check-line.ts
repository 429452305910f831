// One line of the desk's check for IT: what was checked, whether it is well, and why (never a secret).
export interface CheckLine {
  ok: boolean;
  /** What was checked: "policy", "keychain", "library server https://…", "library mirror host:port/db". */
  what: string;
  detail: string;
}
