import Bowser from "bowser";

/** What the security page says when a User-Agent names no browser it knows. */
export const UNKNOWN_BROWSER = "Unknown browser";

/**
 * A session's or event's browser and system in words, from its stored User-Agent: "Chrome 130 on Linux",
 * "Firefox 128 on Windows 10", "Unknown browser". Only the major version: the rest changes weekly and tells the
 * owner nothing about which device it was.
 */
export function deviceName(userAgent: string | null): string {
  if (!userAgent?.trim()) return UNKNOWN_BROWSER;
  const { browser, os } = Bowser.parse(userAgent);
  if (!browser.name) return UNKNOWN_BROWSER;
  const major = browser.version?.split(".")[0];
  const named = major ? `${browser.name} ${major}` : browser.name;
  if (!os.name) return named;
  const system = os.name === "Windows" && os.versionName && os.versionName !== "NT" ? `Windows ${os.versionName}` : os.name;
  return `${named} on ${system}`;
}
