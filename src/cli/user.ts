import { createUser, findUserIdByEmail } from "../auth/create-user.ts";
import { setUserPassword } from "../auth/set-password.ts";
import { parseCommandArgs, requireFlag } from "./args.ts";
import { withCliDeps } from "./context.ts";
import { readSecret, UsageError, type CliIo } from "./io.ts";
import { userJson } from "./json-views.ts";

const ACTIONS = ["create", "password"] as const;

const readPassword = (io: CliIo) => readSecret(io, "PARLEY_PASSWORD", "password", { trim: false });

export async function userCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    email: { type: "string" },
    tenant: { type: "string" },
    role: { type: "string" },
  });
  const [action] = positionals;
  // Checked before the database is opened: a typo must not create an empty database file.
  if (!action) throw new UsageError(`missing action: ${ACTIONS.join(" or ")}`);
  if (!ACTIONS.some((known) => known === action)) throw new UsageError(`unknown user action '${action}'`);
  return withCliDeps(io, { db: values.db }, async (deps) => {
    switch (action) {
      case "create": {
        const email = requireFlag(values.email, "email");
        const tenantId = requireFlag(values.tenant, "tenant");
        // Only a new account needs a password; do not wait on stdin for an existing one.
        const password = (await findUserIdByEmail(deps, email)) ? undefined : await readPassword(io);
        const result = await createUser(deps, { email, tenantId, role: values.role, password });
        if (values.json) io.out(JSON.stringify(userJson(result)));
        else io.out(`${result.created ? "created user" : "added existing user"} ${result.userId} (${result.email}) to ${result.tenantId} as ${result.role}`);
        return 0;
      }
      case "password": {
        const email = requireFlag(values.email, "email");
        const { userId } = await setUserPassword(deps, email, await readPassword(io));
        io.out(`password changed for ${userId}; its refresh tokens were revoked`);
        return 0;
      }
      default:
        throw new UsageError(action ? `unknown user action '${action}'` : "missing action: create or password");
    }
  });
}
