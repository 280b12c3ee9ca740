import type { Metadata } from "next";
import type { ReactNode } from "react";
import type { JsonSchema } from "@/lib/contract/json-schema";
import { buildOpenApiDocument, type OpenApiDocument, type OpenApiOperation } from "@/lib/openapi/document";
import { curlExample, fieldRows, operationsByTag, responseSummary, typeLabel } from "@/lib/openapi/reference";

export const metadata: Metadata = { title: "API reference" };

const METHOD_STYLE: Record<string, string> = {
  get: "bg-emerald-100 text-emerald-900",
  post: "bg-sky-100 text-sky-900",
  delete: "bg-rose-100 text-rose-900",
};

/** `code` and **bold** in the document's descriptions; everything else is plain text. */
function InlineText({ text }: { text: string }) {
  return (
    <>
      {text.split(/(`[^`]+`|\*\*[^*]+\*\*)/).map((part, j): ReactNode => {
        if (part.startsWith("`")) {
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: fragments of a fixed text
            <code key={j} className="rounded bg-slate-100 px-1 font-mono text-sm">
              {part.slice(1, -1)}
            </code>
          );
        }
        // biome-ignore lint/suspicious/noArrayIndexKey: fragments of a fixed text
        if (part.startsWith("**")) return <strong key={j}>{part.slice(2, -2)}</strong>;
        return part;
      })}
    </>
  );
}

function Prose({ text }: { text: string }) {
  return (
    <>
      {text.split(/\n\n+/).map((para, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs of a fixed text
        <p key={i} className="mt-2 text-slate-700">
          <InlineText text={para} />
        </p>
      ))}
    </>
  );
}

function FieldTable({ doc, schema, caption }: { doc: OpenApiDocument; schema: JsonSchema; caption: string }) {
  const rows = fieldRows(doc, schema);
  if (rows.length === 0) return <p className="mt-2 text-slate-700">Type: {typeLabel(doc, schema)}</p>;
  return (
    <table className="mt-2 w-full border-collapse text-left text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="border-b border-slate-300">
          <th scope="col" className="py-1 pr-3">
            Field
          </th>
          <th scope="col" className="py-1 pr-3">
            Type
          </th>
          <th scope="col" className="py-1 pr-3">
            Required
          </th>
          <th scope="col" className="py-1 pr-3">
            Constraints
          </th>
          <th scope="col" className="py-1">
            Description
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.name} className="border-b border-slate-100 align-top">
            <th scope="row" className="py-1 pr-3 font-mono font-normal">
              {r.name}
            </th>
            <td className="py-1 pr-3 font-mono">{r.type}</td>
            <td className="py-1 pr-3">{r.required ? "yes" : "no"}</td>
            <td className="py-1 pr-3">{r.constraints.join("; ")}</td>
            <td className="py-1">{r.description}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Operation({
  doc,
  path,
  method,
  op,
}: {
  doc: OpenApiDocument;
  path: string;
  method: string;
  op: OpenApiOperation;
}) {
  const params = op.parameters ?? [];
  const [contentType, media] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
  return (
    <section
      id={op.operationId}
      aria-labelledby={`${op.operationId}-title`}
      className="mt-10 border-t border-slate-200 pt-6"
    >
      <h3 id={`${op.operationId}-title`} className="flex flex-wrap items-center gap-3 text-lg font-semibold">
        <span className={`rounded px-2 py-0.5 font-mono text-sm uppercase ${METHOD_STYLE[method] ?? ""}`}>
          {method}
        </span>
        <code className="font-mono">{path}</code>
        <span className="font-normal text-slate-600">{op.summary}</span>
      </h3>
      {op["x-cost"] ? <p className="mt-2 text-sm font-medium">Cost: {op["x-cost"]}</p> : null}
      {op.security !== undefined ? <p className="mt-2 text-sm font-medium">No credentials needed.</p> : null}
      <Prose text={op.description} />

      {params.length > 0 ? (
        <>
          <h4 className="mt-4 font-semibold">Parameters</h4>
          <table className="mt-2 w-full border-collapse text-left text-sm">
            <thead>
              <tr className="border-b border-slate-300">
                <th scope="col" className="py-1 pr-3">
                  Name
                </th>
                <th scope="col" className="py-1 pr-3">
                  In
                </th>
                <th scope="col" className="py-1 pr-3">
                  Type
                </th>
                <th scope="col" className="py-1 pr-3">
                  Required
                </th>
                <th scope="col" className="py-1">
                  Description
                </th>
              </tr>
            </thead>
            <tbody>
              {params.map((p) => (
                <tr key={`${p.in}-${p.name}`} className="border-b border-slate-100 align-top">
                  <th scope="row" className="py-1 pr-3 font-mono font-normal">
                    {p.name}
                  </th>
                  <td className="py-1 pr-3">{p.in}</td>
                  <td className="py-1 pr-3 font-mono">{typeLabel(doc, p.schema)}</td>
                  <td className="py-1 pr-3">{p.required ? "yes" : "no"}</td>
                  <td className="py-1">{p.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}

      {contentType && media ? (
        <>
          <h4 className="mt-4 font-semibold">
            Request body <span className="font-normal text-slate-600">({contentType})</span>
          </h4>
          <FieldTable doc={doc} schema={media.schema} caption={`Fields of the ${path} request body`} />
        </>
      ) : null}

      <h4 className="mt-4 font-semibold">Responses</h4>
      <dl className="mt-2 text-sm">
        {Object.entries(op.responses).map(([status, response]) => {
          const schema = (response.content as Record<string, { schema: JsonSchema }> | undefined)?.[
            "application/json"
          ]?.schema;
          const data = (schema?.properties as Record<string, JsonSchema> | undefined)?.data;
          return (
            <div key={status} className="flex gap-3 border-b border-slate-100 py-1">
              <dt className="w-12 shrink-0 font-mono">{status}</dt>
              <dd>
                <InlineText text={responseSummary(doc, response)} />
                {status.startsWith("2") && (data ?? schema) ? (
                  <span className="text-slate-600">
                    {" "}
                    {data ? "Data" : "Body"}: {typeLabel(doc, data ?? schema ?? {})}.
                  </span>
                ) : null}
              </dd>
            </div>
          );
        })}
      </dl>

      <h4 className="mt-4 font-semibold">Example</h4>
      <pre className="mt-2 overflow-x-auto rounded bg-slate-900 p-3 text-sm text-slate-100">
        <code>{curlExample(path, method, op, "$BASE")}</code>
      </pre>
    </section>
  );
}

// GET /docs/api: the API reference, rendered on the server from the same OpenAPI document as /api/v1/openapi.json
export default function ApiReferencePage() {
  const doc = buildOpenApiDocument({ serverUrl: "/api/v1" });
  const info = doc.info as { title: string; description: string };
  const groups = operationsByTag(doc);
  return (
    <main className="mx-auto max-w-5xl px-6 py-12">
      <h1 className="text-3xl font-semibold tracking-tight">{info.title} reference</h1>
      <p className="mt-2 text-slate-600">
        Machine-readable:{" "}
        <a className="underline" href="/api/v1/openapi.json">
          /api/v1/openapi.json
        </a>{" "}
        (OpenAPI 3.1) and <code className="font-mono">/api/v1/postman.json</code> (a Postman collection; needs
        your key).
      </p>
      <Prose text={info.description} />
      <nav aria-label="Endpoints" className="mt-6 rounded border border-slate-200 p-4">
        <h2 className="font-semibold">Endpoints</h2>
        <ul className="mt-2 grid gap-1 text-sm sm:grid-cols-2">
          {groups.flatMap((g) =>
            g.operations.map(({ path, method, op }) => (
              <li key={op.operationId}>
                <a className="underline" href={`#${op.operationId}`}>
                  <span className="font-mono uppercase">{method}</span>{" "}
                  <span className="font-mono">{path}</span>
                </a>
              </li>
            )),
          )}
        </ul>
      </nav>
      {groups.map((g) => (
        <section key={g.name} aria-labelledby={`tag-${g.name}`} className="mt-12">
          <h2 id={`tag-${g.name}`} className="text-2xl font-semibold">
            {g.name}
          </h2>
          {g.description ? <p className="mt-1 text-slate-700">{g.description}</p> : null}
          {g.operations.map(({ path, method, op }) => (
            <Operation key={op.operationId} doc={doc} path={path} method={method} op={op} />
          ))}
        </section>
      ))}
    </main>
  );
}
