import { readFileSync } from "node:fs";
import path from "node:path";
import { type ContentFile, ContentFileSchema } from "#app/content/schemas.ts";
import { projectRoot } from "#app/data/project-root.server.ts";

export function demoContentPath(): string {
  return path.join(projectRoot(), "db", "demo", "demo-content.json");
}

/** The demo dataset shipped with the project, validated like any import. */
export function readDemoContent(file = demoContentPath()): ContentFile {
  return ContentFileSchema.parse(JSON.parse(readFileSync(file, "utf8")));
}
