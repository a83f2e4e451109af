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

  // A phone.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const p2 = await phone.newPage();
  await p2.goto(index);
  await p2.screenshot({ path: path.join(shotDir, "index-phone.png"), fullPage: false });
  await p2.goto(urlOf(order[Math.min(1, order.length - 1)]));
  const overflow = await p2.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  check(overflow <= 0, `the chapter page fits a phone's width (overflow ${overflow}px)`);
  await p2.screenshot({ path: path.join(shotDir, "chapter-phone.png"), fullPage: false });
} finally {
  await browser.close();
}
console.log(failures ? `${failures} check(s) failed` : "all checks passed");
process.exit(failures ? 1 : 0);
