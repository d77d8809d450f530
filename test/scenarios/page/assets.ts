// The style and the one script of a replay page, inlined into it: no fonts, no CDNs, nothing
// fetched. The script only animates what the page already holds; without it (or with
// prefers-reduced-motion) the whole transcript is simply there.

export const STYLE = `
:root { color-scheme: light; --fg: #1d2126; --muted: #5b6470; --line: #d8dde3; --accent: #0b5cad; --term: #14181d; --term-fg: #e6e9ed; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; color: var(--fg); background: #fbfcfd; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 60rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
a { color: var(--accent); }
.brand { margin: 0; font-weight: 600; color: var(--muted); letter-spacing: .02em; }
h1 { margin: .25rem 0 .5rem; font-size: 1.9rem; line-height: 1.2; }
h2 { margin: 2.25rem 0 .5rem; font-size: 1.3rem; }
.tagline { margin: 0 0 .5rem; font-size: 1.1rem; }
.learn, .lead, .muted { color: var(--muted); }
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace; font-size: .875rem; }
.frame { margin: 1rem 0; border-radius: 8px; background: var(--term); color: var(--term-fg); overflow: hidden; max-width: 100%; }
.frame-bar { display: flex; align-items: center; gap: .75rem; padding: .5rem .75rem; background: #232931; }
.dots { display: inline-flex; gap: .35rem; }
.dots i { width: .7rem; height: .7rem; border-radius: 50%; background: #59616b; display: inline-block; }
.frame-title { flex: 1; min-width: 0; color: #aab2bc; font-size: .85rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.play { font: inherit; font-size: .9rem; padding: .3rem .9rem; border-radius: 6px; border: 1px solid #6b7682; background: #2f3741; color: #fff; cursor: pointer; }
.play:hover { background: #3a444f; }
.play:focus-visible { outline: 3px solid #8cc4ff; outline-offset: 2px; }
.transcript { margin: 0; padding: 1rem; overflow-x: auto; white-space: pre; line-height: 1.45; min-height: 6rem; max-height: 70vh; overflow-y: auto; }
.transcript:focus-visible { outline: 3px solid #8cc4ff; outline-offset: -3px; }
.transcript .note { color: #9aa5b1; }
.transcript .cmd { color: #ffffff; font-weight: 600; }
.transcript .out { color: #cfe3d2; }
.transcript .err { color: #f2c0a0; }
.transcript .exit { color: #f0a0a0; }
.playing .transcript::after { content: "\\2588"; color: #8cc4ff; }
table { width: 100%; border-collapse: collapse; margin: .5rem 0; }
th, td { text-align: left; vertical-align: top; padding: .4rem .5rem; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
th { font-size: .85rem; color: var(--muted); font-weight: 600; }
td.n, th.n { width: 3.5rem; }
td.held, th.held { width: 4.5rem; }
td.no { color: #a3191d; font-weight: 600; }
dl.facts { display: grid; grid-template-columns: minmax(7rem, max-content) 1fr; gap: .35rem 1rem; margin: .5rem 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
pre.script { background: #f1f3f5; border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; overflow-x: auto; white-space: pre; }
ul.runs { list-style: none; padding: 0; }
ul.runs li { padding: 1rem 0; border-bottom: 1px solid var(--line); }
ul.runs h2 { margin: 0 0 .25rem; font-size: 1.2rem; }
ul.runs p { margin: .15rem 0; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
footer { margin-top: 2.5rem; color: var(--muted); }
@media (max-width: 480px) { main { padding: 1rem .75rem 2rem; } h1 { font-size: 1.5rem; } dl.facts { grid-template-columns: 1fr; gap: 0 0; } dl.facts dd { margin-bottom: .5rem; } }
`;

// Play: types the transcript out at a human pace (commands character by character, output line
// by line) in a frame that keeps its height meanwhile, so the page below does not jump; pressing
// the button again shows it all at once. With prefers-reduced-motion it shows
// everything at once. It is a real <button>, so Enter and Space work.
export const SCRIPT = `
(function () {
  var frame = document.querySelector(".frame");
  var pre = document.getElementById("transcript");
  var button = document.getElementById("play");
  var status = document.getElementById("play-status");
  if (!frame || !pre || !button) return;
  var nodes = Array.prototype.slice.call(pre.childNodes);
  var full = nodes.map(function (n) { return n.textContent; });
  var timer = null;
  function reduced() { return Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches); }
  function showAll(message) {
    if (timer) { clearTimeout(timer); timer = null; }
    nodes.forEach(function (n, i) { n.textContent = full[i]; });
    frame.classList.remove("playing");
    pre.removeAttribute("aria-busy");
    pre.style.minHeight = "";
    button.textContent = "Play";
    status.textContent = message;
  }
  function play() {
    pre.style.minHeight = pre.offsetHeight + "px";
    nodes.forEach(function (n) { n.textContent = ""; });
    frame.classList.add("playing");
    pre.setAttribute("aria-busy", "true");
    button.textContent = "Show all";
    status.textContent = "Playing the transcript";
    var i = 0, pos = 0;
    function tick() {
      if (i >= nodes.length) { showAll("The transcript has been played"); return; }
      var node = nodes[i], target = full[i];
      var kind = node.nodeType === 1 ? node.className : "";
      if (kind === "cmd" || kind === "note") {
        pos += 1;
        node.textContent = target.slice(0, pos);
        var delay = kind === "cmd" ? Math.max(8, Math.min(45, 2500 / target.length)) : 12;
        if (pos >= target.length) { i += 1; pos = 0; delay = kind === "cmd" ? 350 : 120; }
        timer = setTimeout(tick, delay);
      } else if (kind === "out" || kind === "err" || kind === "exit") {
        var end = target.indexOf("\\n", pos);
        pos = end < 0 ? target.length : end + 1;
        node.textContent = target.slice(0, pos);
        if (pos >= target.length) { i += 1; pos = 0; }
        timer = setTimeout(tick, 60);
      } else {
        node.textContent = target;
        i += 1;
        timer = setTimeout(tick, 0);
      }
      pre.scrollTop = pre.scrollHeight;
    }
    tick();
  }
  button.hidden = false;
  button.addEventListener("click", function () {
    if (reduced()) { showAll("The whole transcript is shown (reduced motion)"); return; }
    if (timer) showAll("The whole transcript is shown"); else play();
  });
})();
`;
