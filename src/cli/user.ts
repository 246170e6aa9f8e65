import { createUser, findUserIdByEmail } from "../auth/create-user.ts";
import { parseDisplayName, setDisplayName } from "../auth/display-name.ts";
import { notFound } from "../lib/app-error.ts";
import { setUserPassword } from "../auth/set-password.ts";
import { deleteUserByEmail } from "../auth/team.ts";
import { parseCommandArgs, requireFlag } from "./args.ts";
import { withCliDeps } from "./context.ts";
import { readSecret, UsageError, type CliIo } from "./io.ts";
import { userJson } from "./json-views.ts";

const ACTIONS = ["create", "password", "name", "delete"] as const;

const readPassword = (io: CliIo) => readSecret(io, "PARLEY_PASSWORD", "password", { trim: false });

export async function userCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    email: { type: "string" },
    tenant: { type: "string" },
    role: { type: "string" },
    name: { type: "string" },
    clear: { type: "boolean" },
  });
  const [action] = positionals;
  // Checked before the database is opened: a typo must not create an empty database file.
  if (!action) throw new UsageError(`missing action: ${ACTIONS.join(" or ")}`);
  if (!ACTIONS.some((known) => known === action)) throw new UsageError(`unknown user action '${action}'`);
  if (action === "name" && (values.name === undefined) === !values.clear)
    throw new UsageError("user name takes --name NAME or --clear");
  // A bad name is refused before a password is asked for or the database is opened.
  if (values.name !== undefined) parseDisplayName(values.name);
  return withCliDeps(io, { db: values.db }, async (deps) => {
    switch (action) {
      case "create": {
        const email = requireFlag(values.email, "email");
        const tenantId = requireFlag(values.tenant, "tenant");
        // Only a new account needs a password; do not wait on stdin for an existing one.
        const password = (await findUserIdByEmail(deps, email)) ? undefined : await readPassword(io);
        const result = await createUser(deps, {
          email,
          tenantId,
          role: values.role,
          password,
          displayName: values.name,
        });
        if (values.json) io.out(JSON.stringify(userJson(result)));
        else
          io.out(
            `${result.created ? "created user" : "added existing user"} ${result.userId} (${result.email}) to ${result.tenantId} as ${result.role}`,
          );
        return 0;
      }
      case "name": {
        const userId = await findUserIdByEmail(deps, requireFlag(values.email, "email"));
        if (!userId) throw notFound("user");
        const { displayName } = await setDisplayName(deps, userId, values.clear ? null : (values.name ?? null));
        if (values.json) io.out(JSON.stringify({ user_id: userId, display_name: displayName }));
        else
          io.out(
            displayName === null
              ? `display name cleared for ${userId}; replies show "Agent"`
              : `display name of ${userId} set to "${displayName}"`,
          );
        return 0;
      }
      case "password": {
        const email = requireFlag(values.email, "email");
        const { userId } = await setUserPassword(deps, email, await readPassword(io));
        io.out(`password changed for ${userId}; its refresh tokens were revoked`);
        return 0;
      }
      case "delete": {
        const { userId, tenantIds } = await deleteUserByEmail(deps, requireFlag(values.email, "email"));
        if (values.json) io.out(JSON.stringify({ user_id: userId, tenant_ids: tenantIds, deleted: true }));
        else
          io.out(
            `deleted user ${userId}${tenantIds.length ? ` (was in ${tenantIds.join(", ")})` : ""}; its tokens no longer work`,
          );
        return 0;
      }
      default:
        throw new UsageError(action ? `unknown user action '${action}'` : `missing action: ${ACTIONS.join(" or ")}`);
    }
  });
}
