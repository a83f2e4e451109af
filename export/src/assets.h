// The site's one stylesheet and one small script (site/assets/), kept in the binary so
// that the site needs nothing from the network or the machine.
#pragma once

namespace quire::exporting {

inline constexpr const char* kStylesheet = R"css(/* quire reading site */
:root {
  --bg: #fdfcf9; --fg: #1d1d1f; --muted: #6b6b70; --accent: #1f5fa8; --rule: #e3e0d8;
  --card: #ffffff; --code-bg: #f4f2ec; --code-fg: #1d1d1f;
  --serif: "Iowan Old Style", "Palatino Linotype", Palatino, "Book Antiqua", Georgia, "DejaVu Serif", serif;
  --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "DejaVu Sans", Arial, sans-serif;
  --mono: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace;
}
/* Dark: the reader's system setting, unless the page's switch (remembered) says otherwise. */
:root { color-scheme: light; --mark: #ffe58a; --mark-fg: #1d1d1f; --good: #1d6b35; --bad: #a4262c; }
:root[data-theme="dark"] { color-scheme: dark; --bg: #17181b; --fg: #e6e4df; --muted: #a3a3a9; --accent: #8cbcf2;
  --rule: #34373d; --card: #1e2024; --code-bg: #23262b; --code-fg: #e6e4df; --mark: #6b5510; --mark-fg: #fff6d8;
  --good: #7fd699; --bad: #ff9a9f; }
@media (prefers-color-scheme: dark) {
  :root:not([data-theme="light"]) { color-scheme: dark; --bg: #17181b; --fg: #e6e4df; --muted: #a3a3a9;
    --accent: #8cbcf2; --rule: #34373d; --card: #1e2024; --code-bg: #23262b; --code-fg: #e6e4df; --mark: #6b5510;
    --mark-fg: #fff6d8; --good: #7fd699; --bad: #ff9a9f; }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 17px/1.6 var(--sans); }
a { color: var(--accent); text-decoration: none; }
a:hover, a:focus { text-decoration: underline; }
/* A link inside running text is underlined: its colour alone would not tell it apart. */
:is(main p, footer p, article li, dd, td, figcaption) a:not(.anchor) { text-decoration: underline; text-underline-offset: .15em; }
h1, h2, h3, h4, h5, h6 { font-family: var(--sans); line-height: 1.25; font-weight: 650; }

/* the learning map */
body.map main { max-width: 76rem; margin: 0 auto; padding: 2.5rem 1.25rem 1rem; }
.masthead h1 { font-size: clamp(1.7rem, 4vw, 2.6rem); margin: 0 0 .35rem; letter-spacing: -.01em; }
.masthead .counts { margin: 0; color: var(--muted); font-weight: 600; }
.masthead .intro { margin: .4rem 0 2rem; color: var(--muted); max-width: 48rem; }
.sections { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 22rem), 1fr)); gap: 1.1rem; }
.section { background: var(--card); border: 1px solid var(--rule); border-radius: 10px; padding: 1rem 1.2rem 1.1rem; }
.section h2 { font-size: 1.08rem; margin: 0 0 .6rem; }
.section h2 .num { color: var(--muted); }
ol.chapters { list-style: none; margin: 0; padding: 0; }
ol.chapters li { padding: .28rem 0; border-top: 1px solid var(--rule); display: flex; gap: .6rem;
                 justify-content: space-between; align-items: baseline; }
ol.chapters li:first-child { border-top: 0; }
ol.chapters .src { color: var(--muted); font-size: .78rem; flex: 0 0 auto; max-width: 45%; text-align: right; }
ol.chapters li.empty { color: var(--muted); font-style: italic; }
section.notes, section.gaps, section.books { max-width: 52rem; margin-top: 2.2rem; }
section.notes h2, section.gaps h2, section.books h2 { font-size: 1.2rem; margin: 0 0 .6rem; }
section.notes ol { padding-left: 1.6rem; margin: 0; }
section.notes li { padding: .12rem 0; }
section.gaps dl { margin: 0; display: grid; grid-template-columns: minmax(8rem, max-content) 1fr; gap: .3rem 1.2rem; }
section.gaps dt { font-weight: 600; }
section.gaps dd { margin: 0; color: var(--muted); }
section.books ul { list-style: none; padding: 0; margin: 0; }
section.books li { padding: .2rem 0; }
section.books summary { cursor: pointer; }
section.books cite { font-style: italic; }
section.books ol.all { margin: .3rem 0 .6rem; padding-left: 1.4rem; font-size: .92rem; list-style: none; }
section.books ol.all .n { color: var(--muted); display: inline-block; min-width: 1.8em; }
footer { max-width: 76rem; margin: 2.5rem auto 0; padding: 1.2rem 1.25rem 2.5rem; border-top: 1px solid var(--rule);
         color: var(--muted); font-size: .88rem; }
footer p { margin: .3rem 0; max-width: 52rem; }
@media (max-width: 560px) {
  ol.chapters li { flex-direction: column; gap: 0; }
  ol.chapters .src { max-width: none; text-align: left; }
  nav.sections-menu ol { position: fixed; left: .5rem; right: .5rem; top: 2.8rem; width: auto; max-width: none; }
  section.gaps dl { grid-template-columns: 1fr; }
  section.gaps dd { margin-bottom: .4rem; }
}

/* a chapter */
body.chapter { font-family: var(--serif); font-size: 19px; line-height: 1.62; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
a.skip { position: absolute; left: .5rem; top: -3rem; padding: .4rem .8rem; background: var(--card); color: var(--accent);
         border: 1px solid var(--rule); border-radius: 6px; z-index: 3; }
a.skip:focus { top: .4rem; }

/* the bar at the top of every page */
header.site { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; align-items: center; gap: .4rem .9rem;
              padding: .45rem 1.25rem; background: var(--bg); border-bottom: 1px solid var(--rule);
              font: .88rem/1.4 var(--sans); }
header.site .home { font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 100%; }
header.site .book { color: var(--muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; flex: 1 1 8rem;
                    text-align: right; order: 9; min-width: 0; }
nav.sections-menu { position: relative; }
nav.sections-menu summary { cursor: pointer; color: var(--accent); }
nav.sections-menu ol { position: absolute; left: 0; top: 1.7rem; z-index: 3; margin: 0; padding: .5rem .8rem;
                       list-style: none; background: var(--card); border: 1px solid var(--rule); border-radius: 8px;
                       box-shadow: 0 6px 24px rgba(0,0,0,.15); width: max-content; max-width: min(26rem, 90vw);
                       max-height: 70vh; overflow: auto; }
nav.sections-menu li { padding: .15rem 0; }
nav.sections-menu li.report { border-top: 1px solid var(--rule); margin-top: .3rem; padding-top: .4rem; }
form.search { position: relative; flex: 1 1 12rem; max-width: 26rem; margin: 0; }
form.search input { width: 100%; font: inherit; padding: .3rem .6rem; color: var(--fg); background: var(--card);
                    border: 1px solid var(--muted); border-radius: 6px; }
form.search .results { position: absolute; left: 0; right: 0; top: 2.2rem; z-index: 3; min-width: min(30rem, 92vw);
                       max-height: 75vh; overflow: auto; background: var(--card); border: 1px solid var(--rule);
                       border-radius: 8px; box-shadow: 0 8px 28px rgba(0,0,0,.18); padding: .3rem 0; }
form.search .results[hidden] { display: none; }
.results a { display: block; padding: .45rem .8rem; color: var(--fg); border-top: 1px solid var(--rule); }
.results a:first-child { border-top: 0; }
.results a:hover, .results a:focus { background: var(--code-bg); text-decoration: none; }
.results .r-title { display: block; color: var(--accent); font-weight: 600; }
.results .r-book { display: block; color: var(--muted); font-size: .8rem; }
.results .r-snip { display: block; font-size: .84rem; overflow-wrap: anywhere; }
.results p { margin: .4rem .8rem; color: var(--muted); }
mark { background: var(--mark); color: var(--mark-fg); border-radius: 2px; padding: 0 .05em; }
button.theme { font: inherit; color: var(--accent); background: transparent; border: 1px solid var(--rule);
               border-radius: 6px; padding: .2rem .6rem; cursor: pointer; }
button.theme[aria-pressed="true"] { background: var(--code-bg); }

body.chapter main { max-width: 42rem; margin: 0 auto; padding: 1.5rem 1.25rem 1rem; }
article h1 { font-size: clamp(1.7rem, 5vw, 2.3rem); margin: 1.2rem 0 1.4rem; letter-spacing: -.01em; }
h1 .opener { display: block; font-size: .55em; font-weight: 500; letter-spacing: .06em; text-transform: uppercase; opacity: .7; }
article h2 { font-size: 1.35rem; margin: 2.2rem 0 .7rem; }
article h3 { font-size: 1.12rem; margin: 1.8rem 0 .5rem; }
article h4, article h5, article h6 { font-size: 1rem; margin: 1.5rem 0 .4rem; }
article :is(h1, h2, h3, h4, h5, h6) { scroll-margin-top: 4rem; }
a.anchor { margin-left: .4rem; color: var(--muted); font-weight: 400; opacity: 0; }
:is(h1, h2, h3, h4, h5, h6):hover a.anchor, a.anchor:focus { opacity: 1; }
@media (hover: none) { a.anchor { opacity: .6; } }
a.anchor.copied::after { content: " link copied"; font: .75rem var(--sans); }
article .hit { outline: 2px solid var(--accent); outline-offset: 4px; border-radius: 2px; scroll-margin-top: 5rem; }
article { overflow-wrap: break-word; }
article :not(pre) > code { overflow-wrap: anywhere; }

/* the chapter's contents: a panel beside the text on a wide screen, folded above it otherwise */
nav.toc { max-width: 42rem; margin: 1rem auto 0; padding: 0 1.25rem; font: .85rem/1.4 var(--sans); }
nav.toc summary { cursor: pointer; color: var(--muted); font-weight: 600; }
nav.toc ol { list-style: none; margin: .4rem 0 0; padding: 0; }
nav.toc li { padding: .12rem 0; }
nav.toc li.toc-3 { padding-left: .9rem; } nav.toc li.toc-4 { padding-left: 1.8rem; }
nav.toc a { color: var(--muted); display: block; border-left: 2px solid transparent; padding-left: .5rem; }
nav.toc a[aria-current="true"] { color: var(--fg); border-left-color: var(--accent); font-weight: 600; }
@media (min-width: 1200px) {
  nav.toc { position: fixed; top: 4.2rem; left: 1rem; width: calc(50vw - 26rem); max-width: 18rem; overflow-wrap: anywhere;
            max-height: calc(100vh - 5rem); overflow: auto; margin: 0; padding: 0 .5rem 0 0; }
}
article p { margin: 0 0 1rem; hyphens: manual; overflow-wrap: break-word; }
article ul { list-style: none; margin: 0 0 1rem; padding-left: 1.4rem; }
article li.drawn-marker { list-style: disc; padding-left: 0; text-indent: 0; }
article li.term { margin-left: -1.4rem; padding-left: 0; text-indent: 0; font-weight: 600; }
article li { margin: .2rem 0; padding-left: 1.2em; text-indent: -1.2em; }
article li.level-2 { margin-left: 1.4rem; } article li.level-3 { margin-left: 2.8rem; }
article li.level-4, article li.level-5, article li.level-6 { margin-left: 4.2rem; }
pre { font-family: var(--mono); font-size: .8rem; line-height: 1.5; background: var(--code-bg); color: var(--code-fg);
      border-radius: 6px; padding: .85rem 1rem; margin: 0 0 1.2rem; overflow-x: auto; white-space: pre; tab-size: 8; }
pre code { font: inherit; }
:not(pre) > code { font-family: var(--mono); font-size: .88em; background: var(--code-bg); color: var(--code-fg);
                   padding: 0 .2em; border-radius: 3px; }
@media (min-width: 1100px) { pre.code, div.table { margin-left: -3rem; margin-right: -3rem; } }
div.table pre { background: transparent; border: 1px solid var(--rule); }
figure { margin: 1.6rem 0; text-align: center; }
figure a.full { display: block; }
figure img { max-width: 100%; height: auto; display: block; margin: 0 auto; background: #fff; border-radius: 4px; }
figure .missing { border: 1px dashed var(--rule); padding: 2rem 1rem; color: var(--muted); font: .9rem var(--sans); }
figcaption, p.caption { font: .88rem/1.45 var(--sans); color: var(--muted); margin-top: .6rem; text-align: center; }
p.footnote { font-size: .85rem; color: var(--muted); border-top: 1px solid var(--rule); padding-top: .4rem; }
aside.note { border-left: 3px solid var(--accent); padding: .2rem 0 .2rem 1rem; margin: 0 0 1rem; }
aside.note p.note-title { font-weight: 600; margin-bottom: .3rem; }
table { border-collapse: collapse; margin: 0 0 1.2rem; font-size: .9rem; display: block; overflow-x: auto; }
th, td { border-bottom: 1px solid var(--rule); padding: .25rem .6rem; text-align: left; vertical-align: top; }
thead th { border-bottom-width: 2px; }
nav.pager { margin: 2rem 0 0; padding: 1rem 0 2.5rem; border-top: 1px solid var(--rule);
            display: grid; grid-template-columns: 1fr auto 1fr; gap: 1rem; align-items: start;
            font: .92rem/1.35 var(--sans); }
nav.pager .prev { justify-self: start; }
nav.pager .next { justify-self: end; text-align: right; }
nav.pager .up { color: var(--muted); }
nav.pager .arrow { font-size: 1.1rem; }
p.offmap { text-align: center; color: var(--muted); font: .85rem var(--sans); }
@media (max-width: 560px) {
  body.chapter { font-size: 17px; line-height: 1.55; }
  header.site { padding: .4rem .75rem; position: static; }  /* three rows would hide a sixth of a phone's screen */
  header.site .book { display: none; }
  body.chapter main { padding: 1rem .9rem; }
  pre { font-size: .75rem; padding: .7rem .75rem; }
}

/* the build report */
body.report main { max-width: 68rem; margin: 0 auto; padding: 1.5rem 1.25rem 3rem; }
body.report h1 { font-size: 2rem; margin: .5rem 0; }
body.report .intro { color: var(--muted); max-width: 48rem; }
body.report .scroll { overflow-x: auto; }
body.report table { display: table; font: .88rem var(--sans); }
body.report td, body.report th { white-space: nowrap; }
body.report td:not(:first-child) { text-align: right; }
body.report section.book { border-top: 1px solid var(--rule); margin-top: 2rem; }
body.report dl.facts { display: grid; grid-template-columns: minmax(9rem, max-content) 1fr; gap: .2rem 1rem; font-size: .92rem; }
body.report dt { font-weight: 600; }
body.report dd { margin: 0; overflow-wrap: anywhere; }
.good { color: var(--good); } .bad { color: var(--bad); } .muted { color: var(--muted); }
figure.plot { margin: 1.2rem 0; }
figure.plot svg { width: 100%; height: auto; display: block; }
figure.plot figcaption { text-align: left; }
svg .bar { fill: var(--accent); } svg .columns { stroke: var(--accent); fill: none; }
svg .axis { stroke: var(--muted); fill: none; stroke-width: 1; }
svg .tick { fill: var(--muted); font: 10px var(--sans); }
@media (max-width: 560px) { body.report dl.facts { grid-template-columns: 1fr; } }

/* paper: the text alone, black on white, the listings wrapped */
@media print {
  :root, :root[data-theme="dark"] { --bg: #fff; --fg: #000; --muted: #444; --accent: #000; --rule: #bbb; --card: #fff;
                                    --code-bg: #f3f3f3; --code-fg: #000; }
  header.site, nav.toc, nav.pager, a.skip, a.anchor, p.offmap { display: none !important; }
  body.chapter { font-size: 11pt; }
  body.chapter main { max-width: none; padding: 0; }
  pre { white-space: pre-wrap; overflow: visible; border: 1px solid #ccc; }
  table { display: table; }
  h1, h2, h3, h4 { break-after: avoid; }
  figure, pre, table { break-inside: avoid; }
  a { color: inherit; }
}
)css";

inline constexpr const char* kScript = R"js(// quire: the colour scheme's switch, site search, the chapter's contents panel, links to
// headings, and the arrow keys to the previous and next chapter. Nothing leaves the disk.
(function () {
  "use strict";
  var KEY = "quire-theme";
  var root = document.documentElement;
  function stored() { try { return localStorage.getItem(KEY); } catch (e) { return null; } }
  var theme = stored();
  if (theme === "dark" || theme === "light") root.setAttribute("data-theme", theme);
  function isDark() {
    var t = root.getAttribute("data-theme");
    if (t) return t === "dark";
    return !!(window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches);
  }

  function typing(t) { return t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)); }

  // ---- search: the index is a script that sets QUIRE_SEARCH, loaded at the first search ----
  var WORD = /[\p{L}\p{N}]/u;
  function terms(q) {
    var seen = {}, out = [];
    (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) || []).forEach(function (t) { if (!seen[t]) { seen[t] = 1; out.push(t); } });
    return out.sort(function (a, b) { return b.length - a.length; });
  }
  // Where `term` starts a word of `text` (lower case), from `from`; -1 if nowhere.
  function wordAt(text, term, from) {
    for (var i = text.indexOf(term, from || 0); i >= 0; i = text.indexOf(term, i + 1))
      if (i === 0 || !WORD.test(text.charAt(i - 1))) return i;
    return -1;
  }
  function escapeHtml(s) {
    return s.replace(/[&<>"']/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]; });
  }
  // `text` with every word that starts with a term in <mark>, escaped.
  function marked(text, ts) {
    var lower = text.toLowerCase(), out = "", at = 0;
    if (lower.length !== text.length) return escapeHtml(text);
    for (;;) {
      var best = -1, len = 0;
      ts.forEach(function (t) { var i = wordAt(lower, t, at); if (i >= 0 && (best < 0 || i < best)) { best = i; len = t.length; } });
      if (best < 0) break;
      out += escapeHtml(text.slice(at, best)) + "<mark>" + escapeHtml(text.slice(best, best + len)) + "</mark>";
      at = best + len;
    }
    return out + escapeHtml(text.slice(at));
  }
  var index = null, loading = null;
  function load(base) {
    if (index) return Promise.resolve(index);
    if (loading) return loading;
    loading = new Promise(function (resolve, reject) {
      function ready() {
        var data = window.QUIRE_SEARCH, bin = atob(data.text), bytes = new Uint8Array(bin.length);
        for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
        var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
        new Response(stream).text().then(function (text) {
          var lines = text.split("\n");
          var chapterOf = new Array(lines.length);
          data.chapters.forEach(function (c, k) { for (var j = 0; j < c[4]; j++) chapterOf[c[3] + j] = k; });
          index = { chapters: data.chapters, lines: lines, lower: lines.map(function (l) { return l.toLowerCase(); }), chapterOf: chapterOf };
          resolve(index);
        }, reject);
      }
      if (window.QUIRE_SEARCH) return ready();
      var s = document.createElement("script");
      s.src = base + "search-index.js";
      s.onload = ready;
      s.onerror = function () { reject(new Error("no search index")); };
      document.head.appendChild(s);
    });
    return loading;
  }
  var kMaxResults = 40;
  function search(idx, q) {
    var ts = terms(q), hits = [];
    if (!ts.length) return { ts: ts, hits: hits };
    for (var g = 0; g < idx.lower.length; g++) {
      var l = idx.lower[g], score = 0, first = -1, ok = true;
      for (var k = 0; k < ts.length && ok; k++) {
        var i = wordAt(l, ts[k]);
        if (i < 0) ok = false;
        else {
          if (first < 0 || i < first) first = i;
          var end = i + ts[k].length;
          score += end >= l.length || !WORD.test(l.charAt(end)) ? 2 : 1;  // a whole word counts more
        }
      }
      if (ok) hits.push({ g: g, score: score, at: first });
    }
    hits.sort(function (a, b) { return b.score - a.score || a.g - b.g; });
    return { ts: ts, hits: hits, total: hits.length };
  }
  function snippet(line, at, ts) {
    var from = Math.max(0, at - 60), to = Math.min(line.length, at + 140);
    if (from > 0) { var sp = line.indexOf(" ", from); if (sp >= 0 && sp < at) from = sp + 1; }
    if (to < line.length) { var sp2 = line.lastIndexOf(" ", to); if (sp2 > at) to = sp2; }
    return (from > 0 ? "… " : "") + marked(line.slice(from, to), ts) + (to < line.length ? " …" : "");
  }
  function setupSearch() {
    var form = document.querySelector("form.search");
    if (!form) return;
    var box = form.querySelector("input"), out = form.querySelector(".results"), base = form.getAttribute("data-root") || "";
    var timer = null;
    function close() { out.hidden = true; }
    function show() {
      var q = box.value.trim();
      if (!q) { out.innerHTML = ""; close(); return; }
      load(base).then(function (idx) {
        if (box.value.trim() !== q) return;
        var r = search(idx, q), html = "";
        r.hits.slice(0, kMaxResults).forEach(function (h) {
          var k = idx.chapterOf[h.g], c = idx.chapters[k], n = h.g - c[3];
          var href = base + c[0] + "#search=" + n + ":" + encodeURIComponent(q);
          html += '<a href="' + escapeHtml(href) + '"><span class="r-title">' + escapeHtml(c[1]) + '</span><span class="r-book">' +
                  escapeHtml(c[2]) + '</span><span class="r-snip">' + snippet(idx.lines[h.g], h.at, r.ts) + "</span></a>";
        });
        if (!r.hits.length) html = "<p>No chapter has " + escapeHtml(q) + ".</p>";
        else if (r.hits.length > kMaxResults) html += "<p>" + kMaxResults + " of " + r.hits.length + " matches shown.</p>";
        out.innerHTML = html;
        out.hidden = false;
      }, function () {
        out.innerHTML = "<p>Search needs search-index.js beside this site's pages.</p>";
        out.hidden = false;
      });
    }
    box.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(show, 120); });
    box.addEventListener("focus", function () { load(base).catch(function () {}); if (box.value.trim()) show(); });
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var first = out.querySelector("a");
      if (first) window.location.href = first.href;
    });
    form.addEventListener("keydown", function (e) {
      var links = Array.prototype.slice.call(out.querySelectorAll("a")), i = links.indexOf(document.activeElement);
      if (e.key === "Escape") { close(); box.focus(); }
      else if (e.key === "ArrowDown" && links.length) { e.preventDefault(); links[Math.min(i + 1, links.length - 1)].focus(); }
      else if (e.key === "ArrowUp" && i >= 0) { e.preventDefault(); (i === 0 ? box : links[i - 1]).focus(); }
    });
    document.addEventListener("click", function (e) { if (!form.contains(e.target)) close(); });
  }

  // A page opened from a search result ("#search=N:query"): its N-th element, words marked.
  function landing() {
    var m = /^#search=(\d+):(.*)$/.exec(window.location.hash);
    if (!m) return;
    var el = document.querySelectorAll("article [data-page]")[+m[1]];
    if (!el) return;
    var ts = terms(decodeURIComponent(m[2]));
    var walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT), nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    nodes.forEach(function (node) {
      var text = node.nodeValue, lower = text.toLowerCase();
      if (lower.length !== text.length) return;
      var parts = [], at = 0;
      for (;;) {
        var best = -1, len = 0;
        ts.forEach(function (t) { var i = wordAt(lower, t, at); if (i >= 0 && (best < 0 || i < best)) { best = i; len = t.length; } });
        if (best < 0) break;
        parts.push(document.createTextNode(text.slice(at, best)));
        var mk = document.createElement("mark");
        mk.textContent = text.slice(best, best + len);
        parts.push(mk);
        at = best + len;
      }
      if (!parts.length) return;
      parts.push(document.createTextNode(text.slice(at)));
      var frag = document.createDocumentFragment();
      parts.forEach(function (p) { frag.appendChild(p); });
      node.parentNode.replaceChild(frag, node);
    });
    el.classList.add("hit");
    el.scrollIntoView({ block: "center" });
  }

  // ---- the chapter's contents: the heading the reader is under is marked ----
  function setupToc() {
    var links = Array.prototype.slice.call(document.querySelectorAll("nav.toc a"));
    if (!links.length) return;
    var details = document.querySelector("nav.toc details");
    if (details && window.matchMedia && !window.matchMedia("(min-width: 1200px)").matches) details.open = false;
    var heads = links.map(function (a) { return document.getElementById(decodeURIComponent(a.getAttribute("href").slice(1))); });
    var current = null, pending = false;
    function update() {
      pending = false;
      var k = -1;
      // The last heading above the top of the text; at the end of the page, the last one in sight.
      var bottom = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
      for (var i = 0; i < heads.length; i++) {
        var top = heads[i] ? heads[i].getBoundingClientRect().top : Infinity;
        if (top < 120 || (bottom && top < window.innerHeight)) k = i;
      }
      var now = k >= 0 ? links[k] : null;
      if (now === current) return;
      if (current) current.removeAttribute("aria-current");
      if (now) now.setAttribute("aria-current", "true");
      current = now;
    }
    window.addEventListener("scroll", function () { if (!pending) { pending = true; requestAnimationFrame(update); } }, { passive: true });
    update();
  }

  // A heading's "#" copies the link to it, and goes there.
  function setupAnchors() {
    document.addEventListener("click", function (e) {
      var a = e.target.closest && e.target.closest("a.anchor");
      if (!a) return;
      var url = window.location.href.split("#")[0] + a.getAttribute("href");
      if (navigator.clipboard && navigator.clipboard.writeText)
        navigator.clipboard.writeText(url).then(function () {
          a.classList.add("copied");
          setTimeout(function () { a.classList.remove("copied"); }, 1500);
        }, function () {});
    });
  }

  function setupTheme() {
    var button = document.querySelector("button.theme");
    if (!button) return;
    function show() { button.setAttribute("aria-pressed", isDark() ? "true" : "false"); }
    button.addEventListener("click", function () {
      var next = isDark() ? "light" : "dark";
      root.setAttribute("data-theme", next);
      try { localStorage.setItem(KEY, next); } catch (e) {}
      show();
    });
    show();
  }

  document.addEventListener("keydown", function (e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    if (typing(e.target)) return;
    if (e.key === "/") {
      var box = document.getElementById("search-box");
      if (box) { e.preventDefault(); box.focus(); box.select(); }
      return;
    }
    if (e.shiftKey) return;
    var rel = e.key === "ArrowLeft" ? "prev" : e.key === "ArrowRight" ? "next" : null;
    if (!rel) return;
    var link = document.querySelector('a[rel="' + rel + '"]');
    if (!link) return;
    e.preventDefault();
    window.location.href = link.href;
  });

  // A listing or table wider than the page scrolls in its own box, which the keyboard can
  // then reach (focus it, then the arrow keys scroll it).
  function scrollersFocusable() {
    document.querySelectorAll("pre, table, div.scroll").forEach(function (el) {
      if (el.scrollWidth > el.clientWidth + 1) { if (!el.hasAttribute("tabindex")) el.setAttribute("tabindex", "0"); }
      else if (el.getAttribute("tabindex") === "0") el.removeAttribute("tabindex");
    });
  }
  window.addEventListener("resize", function () { clearTimeout(scrollersFocusable.t); scrollersFocusable.t = setTimeout(scrollersFocusable, 200); });

  function start() { setupTheme(); setupSearch(); setupToc(); setupAnchors(); scrollersFocusable(); landing(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
)js";

}  // namespace quire::exporting
