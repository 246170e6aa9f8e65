/** What tells an operator in another tab that a visitor waits: the title's count, a sound, a browser notification. */

const SOUND_SETTING = "parley.admin.sound";
const baseTitle = document.title;
let audio: AudioContext | null = null;

export const soundOn = {
  get: (): boolean => localStorage.getItem(SOUND_SETTING) !== "off",
  set: (on: boolean): void => localStorage.setItem(SOUND_SETTING, on ? "on" : "off"),
};

/** "(3) Parley admin" while three chats wait. */
export function showWaiting(count: number): void {
  document.title = count > 0 ? `(${count}) ${baseTitle}` : baseTitle;
}

/** Two short tones, made on the spot (no audio file, nothing fetched). Browsers allow it once the page was clicked. */
function chime(): void {
  try {
    audio ??= new AudioContext();
    for (const [offset, pitch] of [
      [0, 880],
      [0.18, 1320],
    ] as const) {
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.frequency.value = pitch;
      volume.gain.setValueAtTime(0.15, audio.currentTime + offset);
      volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + offset + 0.15);
      tone.connect(volume).connect(audio.destination);
      tone.start(audio.currentTime + offset);
      tone.stop(audio.currentTime + offset + 0.16);
    }
  } catch {
    // No audio here (a policy, a headless browser): the title and the list still say it.
  }
}

export function alertHandoff(text: string | undefined): void {
  if (soundOn.get()) chime();
  if (
    document.visibilityState === "visible" ||
    typeof Notification === "undefined" ||
    Notification.permission !== "granted"
  )
    return;
  new Notification("A visitor is waiting for a person", { body: text ?? "", tag: "parley-handoff" });
}

/** Asks once, on the operator's click (browsers refuse a prompt nobody asked for). */
export async function askForNotifications(): Promise<string> {
  if (typeof Notification === "undefined") return "This browser has no notifications.";
  const answer = await Notification.requestPermission();
  return answer === "granted"
    ? "Browser notifications are on for new hand-offs while this tab is in the background."
    : "Notifications are blocked for this page in the browser's settings.";
}
