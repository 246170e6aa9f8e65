/** My profile: the display name visitors see, and the password. */
import { api, person } from "./api.ts";
import { busy, byId, say, sayError } from "./dom.ts";

interface Me {
  email: string | null;
  display_name: string | null;
}

export function wireProfile() {
  const nameField = byId<HTMLInputElement>("profile-name");

  byId("profile-name-form").addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const message = byId("profile-name-msg");
    const button = (submitted.target as HTMLFormElement).querySelector<HTMLButtonElement>("button[type=submit]");
    if (!button) return;
    void busy(button, async () => {
      try {
        const me = await api<Me>("PATCH", "/me", { display_name: nameField.value.trim() || null });
        say(message, "ok", me.display_name ? `Visitors now see "${me.display_name}".` : 'Visitors now see "Agent".');
      } catch (error) {
        sayError(message, error);
      }
    });
  });

  byId("profile-password-form").addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const message = byId("profile-password-msg");
    const current = byId<HTMLInputElement>("profile-current");
    const next = byId<HTMLInputElement>("profile-new");
    const button = (submitted.target as HTMLFormElement).querySelector<HTMLButtonElement>("button[type=submit]");
    if (!button) return;
    void busy(button, async () => {
      try {
        await api("POST", "/me/password", { current_password: current.value, new_password: next.value });
        // The change revoked every refresh token, this browser's too: sign in again with the new one.
        const me = await api<Me>("GET", "/me");
        if (me.email) await person.signIn(me.email, next.value);
        current.value = "";
        next.value = "";
        say(message, "ok", "Password changed. Other browsers were signed out.");
      } catch (error) {
        sayError(message, error);
      }
    });
  });

  return {
    show: async () => {
      nameField.value = (await api<Me>("GET", "/me")).display_name ?? "";
    },
  };
}
