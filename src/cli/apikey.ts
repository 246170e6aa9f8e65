import { createApiKey, listApiKeys, revokeApiKey } from "../auth/api-keys.ts";
import { parseCommandArgs, requireFlag } from "./args.ts";
import { withCliDeps } from "./context.ts";
import { formatTable, isoOrDash, UsageError, type CliIo } from "./io.ts";
import { apiKeyJson, createdApiKeyJson } from "./json-views.ts";

const ACTIONS = ["create", "list", "revoke"] as const;

export async function apikeyCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    tenant: { type: "string" },
    name: { type: "string" },
  });
  const [action, keyId] = positionals;
  // Checked before the database is opened: a typo must not create an empty database file.
  if (!action) throw new UsageError(`missing action: ${ACTIONS.join(", ")}`);
  if (!ACTIONS.some((known) => known === action)) throw new UsageError(`unknown apikey action '${action}'`);
  return withCliDeps(io, { db: values.db }, async (deps) => {
    switch (action) {
      case "create": {
        const created = await createApiKey(deps, { tenantId: requireFlag(values.tenant, "tenant"), name: values.name });
        if (values.json) io.out(JSON.stringify(createdApiKeyJson(created)));
        else
          io.out(
            `created API key ${created.id} for ${created.tenantId}:\n\n  ${created.key}\n\nIt is shown only now: store it safely. Send it as the X-API-Key header.`,
          );
        return 0;
      }
      case "list": {
        const keys = await listApiKeys(deps, requireFlag(values.tenant, "tenant"));
        if (values.json) io.out(JSON.stringify(keys.map(apiKeyJson)));
        else
          io.out(
            formatTable(
              ["ID", "NAME", "PREFIX", "CREATED", "LAST USED", "REVOKED"],
              keys.map((key) => [
                key.id,
                key.name,
                `${key.prefix}…`,
                isoOrDash(key.createdAt),
                isoOrDash(key.lastUsedAt),
                isoOrDash(key.revokedAt),
              ]),
            ),
          );
        return 0;
      }
      case "revoke": {
        if (!keyId) throw new UsageError("usage: parley apikey revoke KEY_ID");
        const revoked = await revokeApiKey(deps, keyId);
        if (values.json) io.out(JSON.stringify(apiKeyJson(revoked)));
        else io.out(`revoked ${revoked.id} (${revoked.name}) at ${isoOrDash(revoked.revokedAt)}`);
        return 0;
      }
      default:
        throw new UsageError(action ? `unknown apikey action '${action}'` : "missing action: create, list or revoke");
    }
  });
}
