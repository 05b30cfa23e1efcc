import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";
import { ROUTES, type RouteEntry } from "./route-table.ts";

// Every URL of the site (SPEC §2) is an entry of app/route-table.ts, with what
// the server needs to know of it (kept query parameters, letter case,
// language, caches); this file only hands it to React Router. Each module is
// its own lazily loaded chunk. The home (`/`) is also rendered without React:
// see its entry in the table (server/home-page.ts, decision 036).

function toRoute({ path, module, id }: RouteEntry) {
  if (path === "") return index(module);
  return id ? route(path, module, { id }) : route(path, module);
}

export default [
  ...ROUTES.filter((entry) => entry.kind === "resource").map(toRoute),
  // Every page: the layout hands `meta` the public origin and adds feed and icon links.
  layout("routes/site-head.tsx", ROUTES.filter((entry) => entry.kind !== "resource").map(toRoute)),
] satisfies RouteConfig;
