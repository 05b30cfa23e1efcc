import { type HTMLElement, parse } from "node-html-parser";

export async function getHtml(url: string, init?: RequestInit) {
  const response = await fetch(url, { redirect: "manual", ...init });
  const text = await response.text();
  return { response, status: response.status, text, doc: parse(text) as HTMLElement };
}

export function hrefs(doc: HTMLElement, selector: string): string[] {
  return doc.querySelectorAll(selector).map((a) => a.getAttribute("href") ?? "");
}
