// GET /.well-known/fastly/logging/challenge: Fastly streams a service's logs to an HTTPS endpoint only once the
// endpoint's host answers this path with the SHA-256 of the service's id, or "*" for any service. "*": which
// service sends a log matters not here, since each push carries an API key of the account it is stored for.
export function GET() {
  return new Response("*\n", {
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "public, max-age=3600" },
  });
}
