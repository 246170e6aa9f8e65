/**
 * Finds a person's name in a chat message. Three sources, from most to least certain:
 *
 * - explicit: "my name is ana lopez" — any case, the lead-in leaves no doubt (0.95);
 * - prompted: the bot just asked for the name and the whole answer is 1–3 name-like words,
 *   or the rest of a message that also carried a phone/e-mail ("Ana Lopez, 415…") (0.9);
 * - introduced: "I'm Ana", "this is Ana Lopez" — only capitalised words count, because
 *   "I'm interested" and "this is urgent" use the same lead-in (0.8). "It's Ana" counts only
 *   when prompted: unprompted, "it's Delta Dental" is far likelier than a name.
 */

export interface NameFinding {
  value: string;
  confidence: number;
}

export const NAME_CONFIDENCE = { explicit: 0.95, prompted: 0.9, introduced: 0.8 } as const;

const NAME_WORD = "[\\p{L}][\\p{L}'’.-]*";
const CAPITALISED_WORD = "\\p{Lu}[\\p{L}'’.-]*";
const EXPLICIT_PATTERN = new RegExp(
  `(?<![\\p{L}])(?:my name is|my name's|name is|name's|meu nome é|meu nome e|me chamo|mi nombre es|me llamo)\\s*:?\\s+((?:${NAME_WORD})(?:\\s+${NAME_WORD}){0,3})`,
  "iu",
);
// The lead-in is case-insensitive but the name must be capitalised, hence the inline groups.
const INTRODUCED_PATTERN = new RegExp(
  `(?:^|[\\s,.!])(?:[Ii]['’]?m|[Ii] am|[Tt]his is)\\s+((?:${CAPITALISED_WORD})(?:\\s+${CAPITALISED_WORD}){0,3})`,
  "u",
);
const BARE_NAME_PATTERN = new RegExp(`^(?:${NAME_WORD})(?:\\s+${NAME_WORD}){0,2}$`, "u");
const BARE_LEAD_IN =
  /^(?:(?:sure|ok|okay|yes|yeah|yep|hi|hello|hey|sorry|oops|actually|thanks)[\s,!.]+)*(?:it['’]?s|its|i['’]?m|im|name\s*:)?\s*/i;
const MAX_NAME_LENGTH = 80;

/**
 * Words that end a name or show the text was never one ("I'm Looking…", "Sure", "Tomorrow").
 * Months are left out on purpose: April, May and June are names.
 */
const NOT_NAME_WORDS = new Set(
  (
    "yes no ok okay sure thanks thank hi hello hey please and or but my the a an here there from with at on in for to " +
    "is am are was be looking interested calling just not fine good great well sorry new back available free busy " +
    "ready happy glad hoping trying wondering asking writing phone number mobile cell email e-mail mail name booking " +
    "book appointment what when where why how who which can could would will do does did have has i you we they it " +
    "this that today tomorrow tonight monday tuesday wednesday thursday friday saturday sunday morning afternoon " +
    "evening cancel stop help human agent person operator nothing none nope yeah yep yup maybe idk dunno later skip " +
    "interest price quote cost call contact need want like also still again already about me text reach ring whatsapp " +
    "sms send use try details any go ahead perfect works alright cool awesome nice lovely excellent earlier sooner " +
    "different other another time slot instead bit too early late"
  ).split(" "),
);

/**
 * Interjections and fillers that open a correction or a reply ("oops tom@…", "sorry, it's …",
 * "actually …"): never a name, and skipped when they lead a bare answer.
 */
const FILLER_WORDS = new Set(
  (
    "oops oopsie whoops woops sorry soz apologies actually ok okay hi hey hello hiya thanks thank thx ty cheers " +
    "um umm uh er erm hmm well so right oh ah ahh lol haha yes yeah yep sure correction typo mistake my bad wait " +
    "again instead also plus and here"
  ).split(" "),
);
for (const word of FILLER_WORDS) NOT_NAME_WORDS.add(word);

/** Cuts the captured words at the first one that cannot be part of a name. */
function trimToName(words: readonly string[]): string | null {
  const kept: string[] = [];
  for (const word of words) {
    const bare = word.replace(/[.'’-]+$/u, "");
    if (!bare || NOT_NAME_WORDS.has(bare.toLowerCase())) break;
    kept.push(bare);
  }
  if (kept.length === 0) return null;
  const name = kept.slice(0, 3).join(" ");
  return name.length <= MAX_NAME_LENGTH ? name : null;
}

/** "ana lopez" -> "Ana Lopez"; names typed with capitals keep them (McDonald, van der Berg). */
function capitaliseIfLowercase(name: string): string {
  if (name !== name.toLowerCase()) return name;
  return name.replace(
    /(^|[\s'’-])(\p{L})/gu,
    (_, separator: string, letter: string) => separator + letter.toUpperCase(),
  );
}

/**
 * `rest` is the message with any phone numbers and e-mails already cut out; `prompted` says
 * whether the bot's last question was "what's your name?" or the message carried other
 * contact details (both make a bare "Ana Lopez" a name rather than a random phrase).
 */
export function extractName(message: string, rest: string, prompted: boolean): NameFinding | null {
  const explicit = EXPLICIT_PATTERN.exec(message);
  if (explicit?.[1]) {
    const name = trimToName(explicit[1].split(/\s+/));
    if (name) return { value: capitaliseIfLowercase(name), confidence: NAME_CONFIDENCE.explicit };
  }
  const introduced = INTRODUCED_PATTERN.exec(message);
  if (introduced?.[1]) {
    const name = trimToName(introduced[1].split(/\s+/));
    if (name) return { value: name, confidence: NAME_CONFIDENCE.introduced };
  }
  if (!prompted || /\?\s*$/.test(message)) return null;
  const candidate = rest
    .replace(/[,;:!.()"]+/g, " ")
    .trim()
    .replace(BARE_LEAD_IN, "")
    .replace(/\s+/g, " ")
    .trim();
  if (!BARE_NAME_PATTERN.test(candidate)) return null;
  const words = candidate.split(" ");
  const name = trimToName(words);
  // All words must survive: "Ana tomorrow" is not a name followed by noise, it is not a name.
  if (!name || name.split(" ").length !== words.length) return null;
  return { value: capitaliseIfLowercase(name), confidence: NAME_CONFIDENCE.prompted };
}
