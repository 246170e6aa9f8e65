/** Team: the tenant's people; owners add and remove them. */
import { api } from "./api.ts";
import { busy, byId, fillRows, h, say, sayError, when } from "./dom.ts";

interface Member {
  user_id: string;
  email: string;
  display_name: string | null;
  role: string;
  added_at: string;
}

export function wireTeam(role: () => string | null) {
  const message = byId("team-msg");
  const formMessage = byId("team-form-msg");

  async function load() {
    try {
      const team = await api<{ data: Member[] }>("GET", "/users");
      const owner = role() === "owner" || role() === null;
      // The API lets only owners (or the API key) add and remove people; an admin reads the team.
      byId("team-form").hidden = !owner;
      fillRows(
        byId("team-rows"),
        team.data.map((member) => [
          member.email,
          member.display_name ?? "—",
          member.role,
          when(member.added_at),
          owner
            ? h(
                "button",
                {
                  type: "button",
                  "aria-label": `Remove ${member.email}`,
                  onclick: (clicked: Event) => remove(member, clicked.currentTarget as HTMLButtonElement),
                },
                "Remove",
              )
            : "—",
        ]),
        "Nobody yet.",
      );
    } catch (error) {
      sayError(message, error);
    }
  }

  function remove(member: Member, button: HTMLButtonElement) {
    if (!confirm(`Remove ${member.email}? Their access ends at once.`)) return;
    void busy(button, async () => {
      try {
        await api("DELETE", `/users/${encodeURIComponent(member.user_id)}`);
        say(message, "ok", `${member.email} was removed.`);
        await load();
      } catch (error) {
        sayError(message, error);
      }
    });
  }

  byId("team-form").addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const button = (submitted.target as HTMLFormElement).querySelector<HTMLButtonElement>("button[type=submit]");
    const field = (id: string) => byId<HTMLInputElement>(id).value.trim();
    const body: Record<string, string> = {
      email: field("team-email"),
      role: byId<HTMLSelectElement>("team-role").value,
    };
    if (field("team-name")) body.display_name = field("team-name");
    if (byId<HTMLInputElement>("team-password").value) body.password = byId<HTMLInputElement>("team-password").value;
    if (!button) return;
    void busy(button, async () => {
      try {
        const added = await api<Member>("POST", "/users", body);
        for (const id of ["team-email", "team-name", "team-password"]) byId<HTMLInputElement>(id).value = "";
        say(formMessage, "ok", `${added.email} was added as ${added.role}.`);
        await load();
      } catch (error) {
        sayError(formMessage, error);
      }
    });
  });

  return { show: load };
}
