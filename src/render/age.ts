// kubectl's AGE format (apimachinery duration.HumanDuration) and timestamps, computed
// from a given "now" — never from the wall clock.
import { sanitize } from "./sanitize.ts";

/** kubectl's HumanDuration for a duration in milliseconds. */
export function humanDuration(ms: number): string {
  // Go's int(d.Seconds()) truncates toward zero: -1.5s is -1s, which still prints 0s.
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.floor(seconds / 3600);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const days = Math.floor(hours / 24) % 365;
    return days === 0 ? `${Math.floor(hours / 24 / 365)}y` : `${Math.floor(hours / 24 / 365)}y${days}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

/** AGE of a timestamp; kubectl prints `<unknown>` when there is none. */
export function formatAge(timestamp: string | undefined, now: Date): string {
  if (!timestamp) return "<unknown>";
  const t = Date.parse(timestamp);
  if (Number.isNaN(t)) return "<unknown>";
  return humanDuration(now.getTime() - t);
}

/** RFC 3339 in UTC to the second, as upstream prints `Stored:` (`YYYY-MM-DDTHH:MM:SSZ`). */
export function formatTimestamp(timestamp: string | undefined): string {
  if (!timestamp) return "";
  const t = Date.parse(timestamp);
  // Not a time: shown as sent, neutralised (it is a cluster string).
  if (Number.isNaN(t)) return sanitize(timestamp);
  return new Date(t).toISOString().replace(/\.\d{3}Z$/, "Z");
}
