// The shared dashboard table, rendered to HTML as the server sends it.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { type Column, DataTable } from "@/components/ui/data-table";

interface Row {
  name: string;
  count: number;
}

const columns: Column<Row>[] = [
  { header: "Bot", cell: (r) => r.name, className: "font-mono" },
  { header: "Visits", cell: (r) => r.count, align: "right", className: (r) => (r.count > 5 ? "hot" : "") },
];

const render = (rows: Row[]) =>
  renderToStaticMarkup(
    createElement(DataTable<Row>, { columns, rows, rowKey: (r) => r.name, empty: "None yet." }),
  );

describe("DataTable", () => {
  test("an empty list shows the page's empty message instead of a table", () => {
    const html = render([]);
    expect(html).toBe('<p class="text-sm text-slate-700">None yet.</p>');
  });

  test("one header cell per column and one row per item, numbers on the right", () => {
    const html = render([
      { name: "GPTBot", count: 9 },
      { name: "Bingbot", count: 2 },
    ]);
    expect(html).toContain('<th scope="col">Bot</th><th scope="col" class="text-right">Visits</th>');
    expect(html).toContain('<tr><td class="font-mono">GPTBot</td><td class="text-right hot">9</td></tr>');
    expect(html).toContain('<tr><td class="font-mono">Bingbot</td><td class="text-right">2</td></tr>');
    expect(
      html.startsWith(
        '<div class="table-scroll" role="group" aria-label="Table" tabindex="0"><table class="data-table">',
      ),
    ).toBe(true);
  });
});
