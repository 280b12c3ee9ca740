import { describe, expect, test } from "vitest";
import { pageKey } from "./page-figures";

describe("pageKey", () => {
  test("the forms sources write one page in are one key", () => {
    // Analytics reports decoded paths; access logs and Search Console percent-encoded ones, in either case.
    for (const form of ["/café", "/caf%C3%A9", "/caf%c3%a9"]) expect(pageKey(form), form).toBe("/caf%C3%A9");
    for (const form of ["/a b", "/a%20b"]) expect(pageKey(form), form).toBe("/a%20b");
    for (const form of ["/ブログ/記事", "/%E3%83%96%E3%83%AD%E3%82%B0/%E8%A8%98%E4%BA%8B"]) {
      expect(pageKey(form), form).toBe("/%E3%83%96%E3%83%AD%E3%82%B0/%E8%A8%98%E4%BA%8B");
    }
    expect(pageKey("/docs/../pricing")).toBe("/pricing");
    expect(pageKey("/a/./b")).toBe("/a/b");
  });

  test("plain paths are kept as they are, and a path is never taken for a host", () => {
    for (const plain of [
      "/",
      "/pricing",
      "/blog/post-1.html",
      "/a/b/",
      "/~user/x;y=1",
      "/.well-known/llms.txt",
    ]) {
      expect(pageKey(plain), plain).toBe(plain);
    }
    expect(pageKey("//cdn.example/x")).toBe("//cdn.example/x");
    expect(pageKey("/a{b}")).toBe("/a%7Bb%7D");
  });
});
