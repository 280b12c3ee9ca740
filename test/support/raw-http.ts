import net from "node:net";

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The JSON body, or undefined when the body is not JSON. */
  json: unknown;
}

/**
 * One request written byte for byte on a fresh TCP connection (no client library normalises the method or
 * the path's escapes), read until the server closes it.
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body = "",
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  const head = [
    `${method} ${path} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    "Connection: close",
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ...(body ? [`Content-Length: ${Buffer.byteLength(body)}`] : []),
  ].join("\r\n");
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(15_000, () => socket.destroy(new Error(`no answer to ${method} ${path}`)));
    socket.on("data", (c) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => {
      const bytes = Buffer.concat(chunks);
      const end = bytes.indexOf("\r\n\r\n");
      if (end === -1)
        return reject(new Error(`no HTTP answer to ${method} ${path}: ${JSON.stringify(bytes.toString())}`));
      const [statusLine, ...lines] = bytes.subarray(0, end).toString("latin1").split("\r\n");
      const out: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(":");
        out[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      let rest = bytes.subarray(end + 4);
      if (out["transfer-encoding"] === "chunked") {
        const parts: Buffer[] = [];
        for (;;) {
          const nl = rest.indexOf("\r\n");
          const size = Number.parseInt(rest.subarray(0, nl).toString(), 16);
          if (!size) break;
          parts.push(rest.subarray(nl + 2, nl + 2 + size));
          rest = rest.subarray(nl + 2 + size + 2);
        }
        rest = Buffer.concat(parts);
      }
      const body = rest.toString("utf8");
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      resolve({ status: Number(statusLine!.split(" ")[1]), headers: out, body, json });
    });
    // Written, not ended: the server closes the connection after its answer (Connection: close).
    socket.write(`${head}\r\n\r\n${body}`);
  });
}
