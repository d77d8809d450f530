// index.html: every recorded run in a folder, by title, with its tagline, what it shows, how many
// checks held and when it was recorded; each links to its page.
import { el, text } from "./html.ts";
import { BRAND, documentHtml } from "./page.ts";
import { heldCount, type RunRecord } from "./record.ts";

export function renderIndex(records: readonly RunRecord[]): string {
  const sorted = [...records].sort((a, b) => a.id.localeCompare(b.id));
  const items = sorted.map((r) => {
    const { held, total } = heldCount(r);
    return el(
      "li",
      {},
      [
        el("h2", {}, el("a", { href: `${r.id}.html` }, text(r.title))),
        r.tagline ? el("p", {}, text(r.tagline)) : "",
        r.learn ? el("p", { class: "learn" }, `<strong>What it shows.</strong> ${text(r.learn)}`) : "",
        el(
          "p",
          { class: "muted" },
          text(
            `${held === total ? `${held} checks held` : `${total - held} of ${total} checks did not hold`}; recorded ${r.ranAgainst.recordedAt} against Kubernetes ${r.ranAgainst.kubernetes}`,
          ),
        ),
      ].join(""),
    );
  });
  const body = [
    "<header>",
    el("p", { class: "brand" }, text(BRAND)),
    "<h1>All recorded runs</h1>",
    '<p class="tagline">Replays of verified runs against a real kube-apiserver and the operator simulator, not a live cluster.</p>',
    "</header>",
    `<ul class="runs">\n${items.join("\n")}\n</ul>`,
    "<footer><code>npm run demo -- --all --html site</code> records them again against a lab of your own.</footer>",
  ].join("\n");
  return documentHtml(`All recorded runs · ${BRAND}`, body, false);
}
