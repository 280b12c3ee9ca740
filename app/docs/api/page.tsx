import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { CodeSamples } from "@/components/docs/code-samples";
import { currentActor } from "@/lib/auth/session";
import type { JsonSchema } from "@/lib/contract/json-schema";
import {
  curlSnippet,
  javascriptSnippet,
  pythonSnippet,
  requestSample,
  responseSample,
} from "@/lib/docs/snippets";
import { getActiveKey } from "@/lib/keys/keys";
import { buildOpenApiDocument, type OpenApiDocument, type OpenApiOperation } from "@/lib/openapi/document";
import { fieldRows, operationsByTag, responseSummary, typeLabel } from "@/lib/openapi/reference";
import { apiBaseUrl } from "@/lib/openapi/serve";

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
    <ScrollBox label={caption}>
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
    </ScrollBox>
  );
}

/** A wide table scrolls sideways inside the page on a narrow screen; the box takes keyboard focus. */
function ScrollBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y: a scrolling region must be reachable by keyboard, named as a group (not a landmark)
    <div className="table-scroll max-w-full" role="group" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

function Operation({
  doc,
  path,
  method,
  op,
  baseUrl,
  legacy,
  keyId,
}: {
  doc: OpenApiDocument;
  path: string;
  method: string;
  op: OpenApiOperation;
  baseUrl: string;
  /** An operation of the older interface (under /api, bearer credentials). */
  legacy: boolean;
  keyId: string;
}) {
  const sample = { ...requestSample(path, method, op, baseUrl), bearer: legacy };
  const response = responseSample(doc, op);
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
        <code className="break-all font-mono">{legacy ? `/api${path}` : path}</code>
        <span className="font-normal text-slate-600">{op.summary}</span>
      </h3>
      {op["x-cost"] ? <p className="mt-2 text-sm font-medium">Cost: {op["x-cost"]}</p> : null}
      {op.security !== undefined ? <p className="mt-2 text-sm font-medium">No credentials needed.</p> : null}
      <Prose text={op.description} />

      {params.length > 0 ? (
        <>
          <h4 className="mt-4 font-semibold">Parameters</h4>
          <ScrollBox label={`Parameters of ${method.toUpperCase()} ${path}`}>
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
          </ScrollBox>
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

      <h4 className="mt-4 font-semibold">Example request</h4>
      <CodeSamples
        title={`${method.toUpperCase()} ${path}`}
        samples={[
          { language: "curl", code: curlSnippet(sample, keyId) },
          { language: "JavaScript", code: javascriptSnippet(sample, keyId) },
          { language: "Python", code: pythonSnippet(sample, keyId) },
        ]}
      />
      {response ? (
        <>
          <h4 className="mt-4 font-semibold">
            Example response <span className="font-normal text-slate-600">({response.status})</span>
          </h4>
          <pre
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block must be reachable by keyboard
            tabIndex={0}
            className="mt-2 max-h-96 max-w-full overflow-auto rounded bg-slate-100 p-3 text-sm text-slate-900"
          >
            <code>{response.body === null ? "(no body)" : JSON.stringify(response.body, null, 2)}</code>
          </pre>
        </>
      ) : null}
    </section>
  );
}

// GET /docs/api: the API reference, rendered on the server from the same OpenAPI document as /api/v1/openapi.json.
// A signed-in reader's examples carry their account's own key id (never the secret, which is shown only once).
export default async function ApiReferencePage() {
  const doc = buildOpenApiDocument({ serverUrl: "/api/v1" });
  const ctx = await currentActor();
  const key = ctx ? await getActiveKey(ctx.db, ctx.actor.accountId) : null;
  const keyId = key?.keyId ?? "$API_KEY";
  const baseUrl = apiBaseUrl();
  const info = doc.info as { title: string; description: string };
  const groups = operationsByTag(doc);
  return (
    <main id="main" className="mx-auto max-w-5xl px-4 py-8 sm:px-6 sm:py-12">
      <p className="text-sm">
        <Link href={ctx ? "/dashboard" : "/"} className="link">
          ← {ctx ? "Dashboard" : "Home"}
        </Link>
      </p>
      <h1 className="mt-2 text-3xl font-semibold tracking-tight">{info.title} reference</h1>
      <p className="mt-2 text-slate-700" data-testid="docs-key-note">
        {key ? (
          <>
            The examples use your key id <code className="break-all font-mono">{key.keyId}</code> and read the
            secret from the <code className="font-mono">API_SECRET</code> environment variable.
          </>
        ) : (
          <>
            The examples read the key id and secret from <code className="font-mono">$API_KEY</code> and{" "}
            <code className="font-mono">API_SECRET</code>;{" "}
            {ctx ? (
              <Link href="/dashboard/keys" className="link">
                create a key
              </Link>
            ) : (
              <Link href="/login?next=%2Fdocs%2Fapi" className="link">
                sign in
              </Link>
            )}{" "}
            to see your own key id here.
          </>
        )}
      </p>
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
            g.operations.map(({ path, method, op, legacy }) => (
              <li key={op.operationId}>
                <a className="underline" href={`#${op.operationId}`}>
                  <span className="font-mono uppercase">{method}</span>{" "}
                  <span className="break-all font-mono">{legacy ? `/api${path}` : path}</span>
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
          {g.operations.map(({ path, method, op, legacy }) => (
            <Operation
              key={op.operationId}
              doc={doc}
              path={path}
              method={method}
              op={op}
              baseUrl={legacy ? baseUrl.replace(/\/v1$/, "") : baseUrl}
              legacy={legacy}
              keyId={keyId}
            />
          ))}
        </section>
      ))}
    </main>
  );
}
