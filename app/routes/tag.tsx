import { TermScreen, termMeta } from "#app/components/term-screen.tsx";
import { loadTermRoute } from "#app/routes/term-route.server.ts";
import type { Route } from "./+types/tag";

export const meta: Route.MetaFunction = ({ loaderData }) => termMeta(loaderData);

export function loader({ params, request, context }: Route.LoaderArgs) {
  return loadTermRoute("tag", params.slug, request, context);
}

export default function Tag({ loaderData }: Route.ComponentProps) {
  return <TermScreen data={loaderData} />;
}
