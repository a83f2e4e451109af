// Drives Debian's chromium (headless) over a quire reading site opened from disk:
//   node site_test.mjs OUT SCREENSHOT_DIR
// OUT is a corpus folder (with manifest.json and site/). Exit 0: pass, 1: fail, 77: skipped
// (no chromium or no node_modules; ctest's SKIP_RETURN_CODE).
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const SKIP = 77;
const CHROMIUM = process.env.QUIRE_CHROMIUM || "/usr/bin/chromium";
const [outDir, shotDir] = process.argv.slice(2);
if (!outDir || !shotDir) {
  console.error("usage: node site_test.mjs OUT SCREENSHOT_DIR");
  process.exit(2);
}
if (!fs.existsSync(CHROMIUM)) {
  console.log(`SKIP: ${CHROMIUM} not found (apt install chromium)`);
  process.exit(SKIP);
}
let chromium;
try {
  ({ chromium } = await import("playwright-core"));
} catch {
  console.log("SKIP: playwright-core is not installed (run `npm ci` in tests/browser)");
  process.exit(SKIP);
}

let failures = 0;
function check(ok, what) {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures++;
}

const manifest = JSON.parse(fs.readFileSync(path.join(outDir, "manifest.json"), "utf8"));
const chapters = new Map();  // "book/chapter" -> { title, html, blocks }
for (const b of manifest.books)
  for (const c of b.chapters) chapters.set(`${b.id}/${c.id}`, { title: c.title, html: c.html, blocksFile: c.blocks });
// The reading order: each chapter once, at its first appearance on the map.
const order = [];
for (const s of manifest.sections)
  for (const e of s.chapters) {
    const key = `${e.book}/${e.chapter}`;
    if (!order.includes(key)) order.push(key);
  }
const urlOf = (key) => pathToFileURL(path.resolve(outDir, chapters.get(key).html)).href;
const blocksOf = (key) => JSON.parse(fs.readFileSync(path.join(outDir, chapters.get(key).blocksFile), "utf8")).blocks;

fs.mkdirSync(shotDir, { recursive: true });
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox"] });
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const requests = [];
  page.on("request", (r) => { if (!r.url().startsWith("file://")) requests.push(r.url()); });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));

  const index = pathToFileURL(path.resolve(outDir, "site/index.html")).href;
  await page.goto(index);
  check((await page.locator("h1").first().textContent()) === manifest.title, "index shows the map's title");
  const entries = await page.locator(".sections ol.chapters a").count();
  const expectedEntries = manifest.sections.reduce((n, s) => n + s.chapters.length, 0);
  check(entries === expectedEntries, `index links every map entry (${entries} of ${expectedEntries})`);
  await page.screenshot({ path: path.join(shotDir, "index.png"), fullPage: true });

  // Click the first chapter of the map.
  const first = order[0];
  await Promise.all([page.waitForURL(urlOf(first)), page.locator(".sections ol.chapters a").first().click()]);
  const title = chapters.get(first).title;
  check((await page.title()).startsWith(title), `clicking the first entry opens "${title}"`);
  check((await page.locator("article h1").first().textContent()).includes(title), "the chapter page shows its title");

  // Walk the whole reading order with the right arrow key; on each page check figures and code.
  let figures = 0, listings = 0, shotTaken = false;
  for (let i = 0; i < order.length; i++) {
    const key = order[i];
    check(page.url() === urlOf(key), `page ${i + 1}/${order.length} is ${key}`);
    const imgs = page.locator("figure img");
    for (let k = 0; k < (await imgs.count()); k++) {
      const img = imgs.nth(k);
      await img.scrollIntoViewIfNeeded();
      const w = await img.evaluate(async (el) => { if (!el.complete) await new Promise((r) => { el.onload = el.onerror = r; }); return el.naturalWidth; });
      check(w > 0, `${key}: figure ${k + 1} loaded (natural width ${w})`);
      const full = await img.evaluate((el) => (el.parentElement.tagName === "A" ? el.parentElement.href : ""));
      check(full === (await img.evaluate((el) => el.src)), `${key}: figure ${k + 1} opens full size`);
      figures++;
    }
    const code = blocksOf(key).filter((b) => b.type === "code").map((b) => b.text);
    const pres = await page.locator("pre.code").allTextContents();
    check(pres.length === code.length, `${key}: ${code.length} code listings in <pre>`);
    for (let k = 0; k < Math.min(pres.length, code.length); k++) {
      check(pres[k] === code[k], `${key}: listing ${k + 1} keeps its spacing (${code[k].split("\n").length} lines)`);
      listings++;
    }
    // A list item shows the marker the book printed, in its text, and no second one.
    const items = blocksOf(key).filter((b) => b.type === "list_item" && !(b.marks && b.marks.length));
    const lis = await page.locator("article li").evaluateAll((els) =>
      els.map((el) => ({ text: el.textContent, marker: getComputedStyle(el).listStyleType })));
    check(lis.length >= items.length, `${key}: ${items.length} list items in <li>`);
    for (const li of lis) check(li.marker === "none", `${key}: list item "${li.text.slice(0, 30)}" has no marker besides its own`);
    for (const b of items) check(lis.some((li) => li.text === b.text), `${key}: list item "${b.text.slice(0, 30)}" reads as printed`);
    if (!shotTaken && (await imgs.count()) > 0 && code.length > 0) {
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: path.join(shotDir, "chapter.png"), fullPage: true });
      shotTaken = true;
    }
    if (i + 1 < order.length) {
      await Promise.all([page.waitForURL(urlOf(order[i + 1])), page.keyboard.press("ArrowRight")]);
      const next = chapters.get(order[i + 1]).title;
      check((await page.title()).startsWith(next), `ArrowRight opens the next chapter "${next}"`);
    }
  }
  if (!shotTaken) await page.screenshot({ path: path.join(shotDir, "chapter.png"), fullPage: true });
  check(figures > 0 || !order.some((k) => blocksOf(k).some((b) => b.type === "figure" && b.image)), `figures checked: ${figures}`);
  check(listings > 0 || !order.some((k) => blocksOf(k).some((b) => b.type === "code")), `listings checked: ${listings}`);
  if (order.length > 1) {
    await Promise.all([page.waitForURL(urlOf(order[order.length - 2])), page.keyboard.press("ArrowLeft")]);
    check(true, "ArrowLeft goes back to the previous chapter");
  }
  check(requests.length === 0, `no request left the disk (${requests.join(", ") || "none"})`);
  check(errors.length === 0, `no script errors (${errors.join("; ") || "none"})`);

  // axe-core's rules on the page as it is: no serious or critical violation.
  const axePath = path.join(path.dirname(new URL(import.meta.url).pathname), "node_modules/axe-core/axe.min.js");
  const axeCheck = async (name, pg = page) => {
    if (!fs.existsSync(axePath)) return check(false, "axe-core is installed (npm ci in tests/browser)");
    if (!(await pg.evaluate(() => !!window.axe))) await pg.addScriptTag({ path: axePath });
    const violations = await pg.evaluate(async () => (await window.axe.run(document, { resultTypes: ["violations"] })).violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`));
    check(violations.length === 0, `axe: no serious violation on the ${name} ${violations.join("; ")}`);
  };

  // Search: a word of one chapter's text that no other chapter has; the first result opens
  // that chapter at the element that holds it, the word marked.
  const wordsOf = (key) => new Set(blocksOf(key).filter((b) => b.type === "paragraph")
    .flatMap((b) => b.text.toLowerCase().match(/\p{L}{6,}/gu) || []));
  const allText = new Map([...chapters.keys()].map((k) => [k, blocksOf(k).map((b) => b.text || "").join(" ").toLowerCase()]));
  let probe = null;
  for (const key of order) {
    for (const w of wordsOf(key)) {
      const re = new RegExp(`(^|[^\\p{L}\\p{N}])${w}`, "u");
      if ([...allText].every(([k, t]) => k === key || !re.test(t))) { probe = { key, word: w }; break; }
    }
    if (probe) break;
  }
  check(probe !== null, `a word to search for: ${probe ? `"${probe.word}" of ${probe.key}` : "none found"}`);
  if (probe) {
    await page.goto(index);
    await page.keyboard.press("/");
    check(await page.evaluate(() => document.activeElement && document.activeElement.id === "search-box"), "/ focuses the search box");
    await page.keyboard.type(probe.word.toUpperCase());
    const firstResult = page.locator("#search-results a").first();
    await firstResult.waitFor({ timeout: 10000 });
    const resultText = await firstResult.textContent();
    check(resultText.includes(chapters.get(probe.key).title), `the first result names the chapter "${chapters.get(probe.key).title}"`);
    const mark = (await firstResult.locator("mark").first().textContent()) || "";
    check(mark.toLowerCase() === probe.word, `the snippet marks the word (${mark})`);
    await page.screenshot({ path: path.join(shotDir, "search.png") });
    await axeCheck("map with search results");
    await Promise.all([page.waitForURL((u) => u.href.startsWith(urlOf(probe.key) + "#search=")), firstResult.click()]);
    check(page.url().startsWith(urlOf(probe.key)), `the result opens ${probe.key}`);
    const hit = page.locator("article .hit");
    await hit.waitFor({ timeout: 5000 });
    check(((await hit.locator("mark").first().textContent()) || "").toLowerCase() === probe.word, "the chapter marks the word where it is");
    const inView = await hit.evaluate((el) => { const r = el.getBoundingClientRect(); return r.bottom > 0 && r.top < window.innerHeight; });
    check(inView, "the chapter opens at the match");
    await page.screenshot({ path: path.join(shotDir, "search-landing.png") });
  }

  // Inside a chapter: the contents panel lists the headings and marks the one the reader is under.
  for (const key of order) {
    await page.goto(urlOf(key));
    const heads = await page.locator("article :is(h2,h3,h4)").count();
    if (heads < 1) continue;
    check((await page.locator("nav.toc a").count()) === heads, `${key}: the contents list its ${heads} headings`);
    const last = page.locator("article :is(h2,h3,h4)").last();
    await last.evaluate((el) => el.scrollIntoView({ block: "start" }));
    await page.waitForTimeout(200);
    const id = await last.getAttribute("id");
    const current = page.locator('nav.toc a[aria-current="true"]');
    const marked = (await current.count()) === 1 ? await current.getAttribute("href") : "nothing";
    check(marked === `#${id}`, `${key}: the contents mark where the reader is (${marked})`);
    const noAnchor = await page.locator("article :is(h1,h2,h3,h4,h5,h6)").evaluateAll((hs) =>
      hs.filter((h) => !h.id || !h.querySelector(`a.anchor[href="#${CSS.escape(h.id)}"]`)).length);
    check(noAnchor === 0, `${key}: every heading has an id and a link to itself`);
    break;
  }
  const sectionLinks = await page.locator("nav.sections-menu a").count();
  check(sectionLinks === manifest.sections.length + 1, `a chapter page reaches the map's ${manifest.sections.length} sections and the report`);

  // Dark mode: the switch, remembered after a reload.
  await page.goto(index);
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const lightBg = await bg();
  await page.locator("button.theme").click();
  const darkBg = await bg();
  check(darkBg !== lightBg && (await page.locator("html").getAttribute("data-theme")) === "dark", `the switch makes the page dark (${lightBg} -> ${darkBg})`);
  await page.reload();
  check((await bg()) === darkBg && (await page.locator("button.theme").getAttribute("aria-pressed")) === "true", "dark mode is remembered after a reload");
  await page.screenshot({ path: path.join(shotDir, "index-dark.png") });
  await page.locator("button.theme").click();
  check((await bg()) === lightBg, "the switch turns it back");

  // Paper: the text alone, without the bars and panels around it.
  await page.goto(urlOf(order[0]));
  await page.emulateMedia({ media: "print" });
  const printed = await page.evaluate(() => ["header.site", "nav.pager", "nav.toc"].map((s) => document.querySelector(s))
    .filter((el) => el && getComputedStyle(el).display !== "none").length);
  check(printed === 0, "the print stylesheet leaves out the header, contents and arrows");
  await page.emulateMedia({ media: "screen" });
  await page.goto(index);

  // The report, linked from the map's footer.
  await Promise.all([page.waitForURL(/report\.html$/), page.locator("footer a[href='report.html']").click()]);
  check((await page.locator("section.book").count()) === manifest.books.length, `the report has a part for each of the ${manifest.books.length} books`);
  check((await page.locator("section.book figure.plot svg").count()) === 2 * manifest.books.length, "the report plots each book");
  await page.screenshot({ path: path.join(shotDir, "report.png"), fullPage: true });

  // Accessibility: axe-core finds nothing serious on the map, a chapter and the report, light and dark.
  const heavy = order.reduce((a, k) => (blocksOf(k).length > blocksOf(a).length ? k : a), order[0]);
  for (const dark of [false, true])
    for (const [name, url] of [["map", index], [`chapter ${heavy}`, urlOf(heavy)], ["report", pathToFileURL(path.resolve(outDir, "site/report.html")).href]]) {
      await page.goto(url);
      await page.evaluate((d) => { localStorage.setItem("quire-theme", d ? "dark" : "light"); }, dark);
      await page.reload();
      await axeCheck(`${name}${dark ? ", dark" : ""}`);
    }
  await page.evaluate(() => localStorage.removeItem("quire-theme"));

  // A 360 px phone: nothing but code (and a table, in its own box) scrolls sideways.
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const p2 = await phone.newPage();
  const wide = [index, pathToFileURL(path.resolve(outDir, "site/report.html")).href, ...order.map(urlOf)];
  for (const url of wide) {
    await p2.goto(url);
    const r = await p2.evaluate(() => {
      const over = document.documentElement.scrollWidth - document.documentElement.clientWidth;
      // Inside a scrolling box of its own, or folded away (a closed <details>).
      const inside = (el) => el.closest("pre, table, .scroll, svg") || (el.closest("details:not([open])") && !el.closest("summary"));
      const out = [...document.querySelectorAll("body *")].filter((el) => !inside(el) && el.getBoundingClientRect().right > window.innerWidth + 1 &&
        getComputedStyle(el).position !== "absolute" && el.getClientRects().length).map((el) => el.tagName + "." + el.className);
      return { over, out: out.slice(0, 5) };
    });
    check(r.over <= 0 && r.out.length === 0, `360 px: ${url.split("/site/")[1]} scrolls sideways only inside code (${r.over}px ${r.out.join(" ")})`);
  }
  await p2.goto(index);
  await p2.screenshot({ path: path.join(shotDir, "index-phone.png"), fullPage: false });
  await p2.goto(urlOf(order[Math.min(1, order.length - 1)]));
  await p2.screenshot({ path: path.join(shotDir, "chapter-phone.png"), fullPage: false });
  // On a phone the listings scroll in their boxes, which the keyboard must reach.
  await p2.goto(urlOf(heavy));
  await axeCheck(`chapter ${heavy} at 360 px`, p2);
} finally {
  await browser.close();
}
console.log(failures ? `${failures} check(s) failed` : "all checks passed");
process.exit(failures ? 1 : 0);
