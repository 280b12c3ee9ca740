import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * Fixture pages for Core Web Vitals runs, each with one planted problem (or none), served on 127.0.0.1.
 * Pages live on one port and their images on a second, so Lighthouse's simulation sees the images'
 * server delay on an origin of their own instead of averaging it with the document's.
 */
export interface CwvFixtures {
  /** Base URL of the pages, e.g. http://127.0.0.1:PORT */
  url: string;
  /** Base URL of the images (another origin). */
  assetsUrl: string;
  requests: string[];
  close(): Promise<void>;
}

export const FIXTURE_PAGES = {
  clean: "/clean",
  slowLcp: "/slow-lcp",
  layoutShift: "/layout-shift",
  slowInteraction: "/slow-interaction",
  hang: "/hang",
  redirectPrivate: "/redirect-private",
} as const;

const SLOW_IMAGE_DELAY_MS = 2500;
const LATE_IMAGE_DELAY_MS = 600;
export const INTERACTION_BLOCK_MS = 400;
/** 400 ms alone rates "needs improvement" (INP poor starts over 500 ms); the frame after it costs 200 ms more. */
const PRESENTATION_BLOCK_MS = 200;

const TEXT = Array.from(
  { length: 6 },
  (_, i) =>
    `<p>Paragraph ${i + 1}. Core Web Vitals measure loading, visual stability and responsiveness. A page that answers quickly, keeps its layout still and reacts to taps at once keeps its visitors.</p>`,
).join("\n");

function page(title: string, body: string, head = ""): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><meta name="description" content="${title} fixture">
<style>body{font-family:sans-serif;margin:8px;line-height:1.5}img{display:block;max-width:100%}</style>${head}
</head><body>${body}</body></html>`;
}

function pages(assetsUrl: string): Record<string, string> {
  return {
    [FIXTURE_PAGES.clean]: page(
      "Clean page",
      `<h1>A clean page</h1>${TEXT}
<button id="b" type="button">Show more</button><p id="out"></p>
<details><summary>More details</summary><p>Nothing heavy here.</p></details>
<label>Search <input type="search" name="q" placeholder="Search"></label>
<script>document.getElementById("b").addEventListener("click",()=>{document.getElementById("out").textContent="Shown."});</script>`,
    ),
    [FIXTURE_PAGES.slowLcp]: page(
      "Slow hero image",
      `<h1>Slow hero</h1><img src="${assetsUrl}/slow-hero.bmp" width="400" height="300" alt="Hero">${TEXT}`,
    ),
    [FIXTURE_PAGES.layoutShift]: page(
      "Late image",
      `<h1 id="top">Late image</h1>${TEXT}${TEXT}
<script>
// An image inserted by script above the text, without width or height: the text jumps when it arrives.
const img = document.createElement("img");
img.src = "${assetsUrl}/late.bmp";
img.alt = "Late";
img.style.width = "100%";
document.getElementById("top").after(img);
</script>`,
    ),
    [FIXTURE_PAGES.slowInteraction]: page(
      "Slow button",
      `<h1>Slow button</h1>${TEXT}
<button id="add" type="button">Add to cart</button><p id="cart">Cart: 0</p>
<img src="http://169.254.169.254/latest/meta-data/iam.png" alt="" width="1" height="1">
<img src="http://10.0.0.1/internal.png" alt="" width="1" height="1">
<script>
let n = 0;
document.getElementById("add").addEventListener("click", () => {
  const end = performance.now() + ${INTERACTION_BLOCK_MS};
  while (performance.now() < end) {}
  document.getElementById("cart").textContent = "Cart: " + (++n);
  requestAnimationFrame(() => {
    const until = performance.now() + ${PRESENTATION_BLOCK_MS};
    while (performance.now() < until) {}
  });
});
</script>`,
    ),
  };
}

/** A 24-bit uncompressed BMP: plain pixels with a real size, so transfer time is honest. */
function makeBmp(width: number, height: number, rgb: [number, number, number]): Buffer {
  const rowSize = Math.ceil((width * 3) / 4) * 4;
  const size = 54 + rowSize * height;
  const buf = Buffer.alloc(size);
  buf.write("BM", 0);
  buf.writeUInt32LE(size, 2);
  buf.writeUInt32LE(54, 10);
  buf.writeUInt32LE(40, 14);
  buf.writeInt32LE(width, 18);
  buf.writeInt32LE(height, 22);
  buf.writeUInt16LE(1, 26);
  buf.writeUInt16LE(24, 28);
  buf.writeUInt32LE(rowSize * height, 34);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = 54 + y * rowSize + x * 3;
      const shade = (x * 7 + y * 3) % 64;
      buf[o] = (rgb[2] + shade) & 255;
      buf[o + 1] = (rgb[1] + shade) & 255;
      buf[o + 2] = (rgb[0] + shade) & 255;
    }
  }
  return buf;
}

export async function startCwvFixtures(): Promise<CwvFixtures> {
  const requests: string[] = [];
  const hero = makeBmp(400, 300, [40, 90, 160]);
  const late = makeBmp(400, 300, [160, 60, 40]);
  const sockets = new Set<Socket>();
  let html: Record<string, string> = {};

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://fixture").pathname;
    requests.push(path);
    const sendImage = (body: Buffer, delayMs: number) =>
      setTimeout(() => {
        res.writeHead(200, {
          "content-type": "image/bmp",
          "content-length": body.length,
          "cache-control": "no-store",
        });
        res.end(body);
      }, delayMs);
    if (path === "/slow-hero.bmp") return void sendImage(hero, SLOW_IMAGE_DELAY_MS);
    if (path === "/late.bmp") return void sendImage(late, LATE_IMAGE_DELAY_MS);
    if (path === FIXTURE_PAGES.hang) return; // never answers
    if (path === FIXTURE_PAGES.redirectPrivate) {
      res.writeHead(302, { location: "http://10.0.0.1/admin" });
      return void res.end();
    }
    const body = html[path];
    if (body === undefined) {
      res.writeHead(404, { "content-type": "text/plain" });
      return void res.end("not found");
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    res.end(body);
  };

  const listen = async () => {
    const server = http.createServer(handler);
    server.on("connection", (socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { server, port: (server.address() as AddressInfo).port };
  };
  const main = await listen();
  const assets = await listen();
  const url = `http://127.0.0.1:${main.port}`;
  const assetsUrl = `http://127.0.0.1:${assets.port}`;
  html = pages(assetsUrl);
  return {
    url,
    assetsUrl,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all(
        [main.server, assets.server].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))),
      );
    },
  };
}
