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
@media (prefers-color-scheme: dark) {
  :root { --bg: #17181b; --fg: #e6e4df; --muted: #9a9aa0; --accent: #7fb0ea; --rule: #2e3036;
          --card: #1e2024; --code-bg: #23262b; --code-fg: #e6e4df; }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 17px/1.6 var(--sans); }
a { color: var(--accent); text-decoration: none; }
a:hover, a:focus { text-decoration: underline; }
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
ol.chapters .src { color: var(--muted); font-size: .78rem; white-space: nowrap; flex-shrink: 0; }
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
  section.gaps dl { grid-template-columns: 1fr; }
  section.gaps dd { margin-bottom: .4rem; }
}

/* a chapter */
body.chapter { font-family: var(--serif); font-size: 19px; line-height: 1.62; }
nav.top { position: sticky; top: 0; z-index: 1; display: flex; justify-content: space-between; gap: 1rem;
          padding: .55rem 1.25rem; background: var(--bg); border-bottom: 1px solid var(--rule);
          font: .85rem/1.4 var(--sans); }
nav.top .book { color: var(--muted); text-align: right; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
nav.top .home { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
nav.top .home::before { content: "\2190\00a0"; }
body.chapter main { max-width: 42rem; margin: 0 auto; padding: 1.5rem 1.25rem 1rem; }
article h1 { font-size: clamp(1.7rem, 5vw, 2.3rem); margin: 1.2rem 0 1.4rem; letter-spacing: -.01em; }
h1 .opener { display: block; font-size: .55em; font-weight: 500; letter-spacing: .06em; text-transform: uppercase; opacity: .7; }
article h2 { font-size: 1.35rem; margin: 2.2rem 0 .7rem; }
article h3 { font-size: 1.12rem; margin: 1.8rem 0 .5rem; }
article h4, article h5, article h6 { font-size: 1rem; margin: 1.5rem 0 .4rem; }
article p { margin: 0 0 1rem; hyphens: manual; overflow-wrap: break-word; }
article ul { list-style: none; margin: 0 0 1rem; padding-left: 1.4rem; }
article li.drawn-marker { list-style: disc; padding-left: 0; text-indent: 0; }
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
figure img { max-width: 100%; height: auto; display: block; margin: 0 auto; background: #fff; border-radius: 4px; }
figure .missing { border: 1px dashed var(--rule); padding: 2rem 1rem; color: var(--muted); font: .9rem var(--sans); }
figcaption, p.caption { font: .88rem/1.45 var(--sans); color: var(--muted); margin-top: .6rem; text-align: center; }
p.footnote { font-size: .85rem; color: var(--muted); border-top: 1px solid var(--rule); padding-top: .4rem; }
aside.note { border-left: 3px solid var(--accent); padding: .2rem 0 .2rem 1rem; margin: 0 0 1rem; }
aside.note p.note-title { font-weight: 600; margin-bottom: .3rem; }
table { border-collapse: collapse; margin: 0 0 1.2rem; font-size: .9rem; display: block; overflow-x: auto; }
th, td { border-bottom: 1px solid var(--rule); padding: .25rem .6rem; text-align: left; vertical-align: top; }
thead th { border-bottom-width: 2px; }
nav.pager { max-width: 42rem; margin: 1rem auto 0; padding: 1rem 1.25rem 2.5rem; border-top: 1px solid var(--rule);
            display: grid; grid-template-columns: 1fr auto 1fr; gap: 1rem; align-items: start;
            font: .92rem/1.35 var(--sans); }
nav.pager .prev { justify-self: start; }
nav.pager .next { justify-self: end; text-align: right; }
nav.pager .up { color: var(--muted); }
nav.pager .arrow { font-size: 1.1rem; }
p.offmap { text-align: center; color: var(--muted); font: .85rem var(--sans); }
@media (max-width: 560px) {
  body.chapter { font-size: 17px; line-height: 1.55; }
  nav.top .book { display: none; }
  pre { font-size: .75rem; padding: .7rem .75rem; }
}
)css";

inline constexpr const char* kScript = R"js(// quire: the left and right arrow keys go to the previous and next chapter.
(function () {
  "use strict";
  document.addEventListener("keydown", function (e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var rel = e.key === "ArrowLeft" ? "prev" : e.key === "ArrowRight" ? "next" : null;
    if (!rel) return;
    var link = document.querySelector('a[rel="' + rel + '"]');
    if (!link) return;
    e.preventDefault();
    window.location.href = link.href;
  });
})();
)js";

}  // namespace quire::exporting
