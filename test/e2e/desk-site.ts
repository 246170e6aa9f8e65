import { TEST_PASSWORD } from "../helpers.ts";
import { createApp } from "../../src/http/app.ts";
import type { AppDeps } from "../../src/http/deps.ts";
import { createTenant, type TenantRecord } from "../../src/tenants/create-tenant.ts";
import { createUser, type CreateUserInput } from "../../src/auth/create-user.ts";

export interface DeskSite {
  tenant: TenantRecord;
  /** Parley's own address (the admin page, the API). */
  origin: string;
  /** The host page with the widget; its query string reaches `widgetAttributes`. */
  hostUrl: string;
  stop(): Promise<void>;
}

/**
 * Parley listening in this process on 127.0.0.1, a dental clinic's tenant with one person
 * (password TEST_PASSWORD), and a host page on another port that embeds the clinic's widget.
 */
export async function startDeskSite(
  deps: AppDeps,
  person: { name: string; email: string; role: NonNullable<CreateUserInput["role"]>; displayName: string },
  widgetAttributes: (url: URL) => string = () => "",
): Promise<DeskSite> {
  const tenant = await createTenant(deps, { name: person.name, sector: "dental-clinic" });
  await createUser(deps, {
    email: person.email,
    tenantId: tenant.id,
    role: person.role,
    password: TEST_PASSWORD,
    displayName: person.displayName,
  });
  const parley = createApp(deps).listen({ port: 0, hostname: "127.0.0.1" });
  const origin = `http://127.0.0.1:${parley.server?.port}`;
  const host = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (request) =>
      new Response(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Clinic</title></head><body><main><h1>Clinic</h1></main>
<script src="${origin}/widget.js" data-tenant="${tenant.id}" ${widgetAttributes(new URL(request.url))} async></script></body></html>`,
        { headers: { "content-type": "text/html; charset=utf-8" } },
      ),
  });
  return {
    tenant,
    origin,
    hostUrl: `http://127.0.0.1:${host.port}/`,
    async stop() {
      host.stop(true);
      await parley.stop();
    },
  };
}
