// GET /favicon.ico: browsers ask for it whatever the page links; answer with the SVG icon rather than a 404.
const ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><title>Findable</title><rect width="32" height="32" rx="6" fill="#4338ca"/><path d="M10 8h13v4h-8.5v3.5H21v4h-6.5V24H10z" fill="#fff"/></svg>';

export function GET() {
  return new Response(ICON, {
    headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" },
  });
}
