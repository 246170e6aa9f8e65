import type { ContactField } from "./extract-contact.ts";
import { normalizeTerm, tokenize } from "./faq-terms.ts";
import { detailsKnownText, detailsUpdatedText, invalidAttemptText } from "./replies.ts";
import { CONFIDENCE, type Turn, type TurnReply } from "./turn.ts";

/**
 * Contact details sent again outside any flow: after the lead was captured ("I'm Ana Lopez,
 * (415) 555-0132, ana@example.com" once more, or a new e-mail), or after a booking took the
 * name and phone. Such a message is understood — it is acknowledged, changes are confirmed,
 * and it never counts toward the low-confidence hand-off. The lead is still emitted only once
 * per session (see captureLeadIfComplete).
 */

/** Words that only frame contact details: "my new number is …", "you can reach me on …". */
const CONTACT_FRAMING = new Set(
  (
    "name email e-mail mail address phone number mobile cell tel telephone landline contact detail reach call text " +
    "again new updated update correct correction here sorry actually instead on via it's its im i'm this hi hey hello " +
    "cheers thx ty regards best mr mrs ms dr use please pls change changed should be oops whoops typo wrong " +
    // Portuguese and Spanish: "desculpa, meu número certo é …", "perdón, mi correo es …".
    "nome número numero telefone celular e-mail correo correio novo nova certo correto desculpa desculpe " +
    "perdão perdon perdón disculpa nuevo nueva correcto teléfono telefono móvil movil errado equivocado"
  ).split(" "),
);
/** "Ana Lopez, 415…, thanks" is contact details; "ana@example.com, is there parking?" is a question. */
const MAX_OTHER_WORDS = 0;
const PHONE_LIKE = /\+?\(?\d[\d\s().-]*\d|\d/g;

/** Whether the message, without its e-mail, phone, name and framing words, says nothing else. */
function isOnlyContact(turn: Turn): boolean {
  const nameWords = new Set(
    [turn.contact.name?.value, turn.state.lead.name].flatMap((name) => (name ? name.toLowerCase().split(/\s+/) : [])),
  );
  const rest = turn.message
    .split(/\s+/)
    .filter((token) => !token.includes("@"))
    .join(" ")
    .replace(PHONE_LIKE, " ");
  const others = tokenize(rest).filter((token) => {
    const term = normalizeTerm(token);
    return term !== null && !nameWords.has(token.toLowerCase()) && !CONTACT_FRAMING.has(term);
  });
  return others.length <= MAX_OTHER_WORDS;
}

/** The valid details the message carried; a bare "Ana Lopez" counts when it is the name on file. */
function foundFields(turn: Turn): ContactField[] {
  const { contact, state } = turn;
  const fields: ContactField[] = [];
  if (contact.name || isBareKnownName(turn.message, state.lead.name)) fields.push("name");
  if (contact.phone) fields.push("phone");
  if (contact.email) fields.push("email");
  return fields;
}

const NOT_ASCII = /[^\x00-\x7f]/;
/** In ASCII text: the first word of the bare form below, before lower case. */
const FIRST_WORD_ASCII = /[A-Za-z'-]+/;

/** The message is the name on file, or its first word, and nothing else ("ana lopez", "Ana!"). */
export function isBareKnownName(message: string, name: string | null): boolean {
  if (!name) return false;
  const knownName = name.toLowerCase();
  const firstName = knownName.split(" ")[0] ?? "";
  // Asked on every message once a lead is in. A bare form that is either name has `firstName`
  // as its first word; in ASCII text that word is the message's first run of letters, ' and -.
  // Most messages differ there, and are refused without the Unicode replaces below.
  if (firstName !== "" && !NOT_ASCII.test(message) && FIRST_WORD_ASCII.exec(message)?.[0].toLowerCase() !== firstName)
    return false;
  const bare = message
    .replace(/[^\p{L}\s'’-]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
  return bare === knownName || bare === firstName;
}

/** Only details the bot already holds, and nothing else: "Ana Lopez, 415-555-0132" again. */
export function repeatsKnownContact(turn: Turn): boolean {
  // A turn with a new detail is no repeat: decided before the message is looked at again.
  if (turn.newFields.length > 0) return false;
  return onlyKnownFields(turn, foundFields(turn)) && isOnlyContact(turn);
}

/** Details were found and the bot holds every one of them (the callers have ruled out new ones). */
function onlyKnownFields(turn: Turn, found: ContactField[]): boolean {
  return found.length > 0 && found.every((field) => turn.state.lead[field] !== null);
}

/**
 * The reply to contact details sent after the bot used them (a lead captured or a booking
 * made): the same ones are acknowledged, changed ones confirmed, a broken one explained.
 * Null when the message is something else.
 */
export function acknowledgeContact(turn: Turn): TurnReply | null {
  const { state, newFields } = turn;
  if (!state.leadCaptured && state.bookedStartMs === null) return null;
  const found = foundFields(turn);
  const invalid = found.length === 0 ? turn.contact.invalid[0] : undefined;
  if ((found.length === 0 && !invalid) || !isOnlyContact(turn)) return null;
  if (invalid) return { text: invalidAttemptText(invalid, turn.say), confidence: CONFIDENCE.flowReask };
  if (newFields.length > 0) {
    // New details before any lead was taken belong to the lead flow (an e-mail after a booking
    // completes one); a corrected phone after a booking is just confirmed.
    if (!state.leadCaptured && turn.config.lead.enabled && turn.corrected.length < newFields.length) return null;
    return { text: detailsUpdatedText(state.lead, newFields, turn.say), confidence: CONFIDENCE.contactAcknowledged };
  }
  // isOnlyContact held above: what is left of repeatsKnownContact is the fields.
  if (!onlyKnownFields(turn, found)) return null;
  return { text: detailsKnownText(state.lead, turn.say), confidence: CONFIDENCE.contactAcknowledged };
}
