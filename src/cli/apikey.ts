import { createApiKey, listApiKeys, revokeApiKey } from "../auth/api-keys.ts";
import { parseCommandArgs, requireFlag } from "./args.ts";
import { withCliDeps } from "./context.ts";
import { formatTable, isoOrDash, UsageError, type CliIo } from "./io.ts";

export async function apikeyCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    tenant: { type: "string" },
    name: { type: "string" },
  });
  const [action, keyId] = positionals;
  return withCliDeps(io, { db: values.db }, (deps) => {
    switch (action) {
      case "create": {
        const created = createApiKey(deps, { tenantId: requireFlag(values.tenant, "tenant"), name: values.name });
        if (values.json) io.out(JSON.stringify(created));
        else io.out(`created API key ${created.id} for ${created.tenantId}:\n\n  ${created.key}\n\nIt is shown only now: store it safely. Send it as the X-API-Key header.`);
        return 0;
      }
      case "list": {
        const keys = listApiKeys(deps, requireFlag(values.tenant, "tenant"));
        if (values.json) io.out(JSON.stringify(keys));
        else io.out(formatTable(["ID", "NAME", "PREFIX", "CREATED", "LAST USED", "REVOKED"], keys.map((key) => [key.id, key.name, `${key.prefix}…`, isoOrDash(key.createdAt), isoOrDash(key.lastUsedAt), isoOrDash(key.revokedAt)])));
        return 0;
      }
      case "revoke": {
        if (!keyId) throw new UsageError("usage: parley apikey revoke KEY_ID");
        const revoked = revokeApiKey(deps, keyId);
        if (values.json) io.out(JSON.stringify(revoked));
        else io.out(`revoked ${revoked.id} (${revoked.name}) at ${isoOrDash(revoked.revokedAt)}`);
        return 0;
      }
      default:
        throw new UsageError(action ? `unknown apikey action '${action}'` : "missing action: create, list or revoke");
    }
  });
}
