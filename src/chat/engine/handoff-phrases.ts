import { findPhrase } from "./intents.ts";

/**
 * What asks for a person in any business and any of the three languages, on top of the
 * tenant's own `handoff.keywords`: the manager, "someone real", and complaints — anger or a
 * refund demand is handed to a person at once, never answered with an FAQ entry.
 * Bare "manager" and "agent" are left out: "property manager", "whitening agent".
 */

export const PERSON_PHRASES = [
  "the manager",
  "a manager",
  "your manager",
  "talk to manager",
  "speak to manager",
  "someone real",
  "somebody real",
  "a real human",
  "real human",
  "actual person",
  "actual human",
  "a human",
  "speak with someone",
  "talk with someone",
  "o gerente",
  "falar com gerente",
  "com o gerente",
  "falar com uma pessoa",
  "falar com alguém",
  "falar com alguem",
  "pessoa de verdade",
  "pessoa real",
  "um humano",
  "atendente",
  "atendimento humano",
  "el gerente",
  "el encargado",
  "la encargada",
  "hablar con una persona",
  "hablar con alguien",
  "persona real",
  "un humano",
  "persona de verdad",
  "atención humana",
  "atencion humana",
  "un agente",
] as const;

export const COMPLAINT_PHRASES = [
  "want a refund",
  "want my money back",
  "demand a refund",
  "give me a refund",
  "need a refund",
  "refund me",
  "ridiculous",
  "unacceptable",
  "disgusting",
  "furious",
  "outrageous",
  "terrible service",
  "awful service",
  "scam",
  "rip off",
  "ripped off",
  "complaint",
  "want to complain",
  "fed up",
  "this is a joke",
  "so angry",
  "very angry",
  "quero reembolso",
  "quero um reembolso",
  "quero o reembolso",
  "meu dinheiro de volta",
  "devolvam meu dinheiro",
  "absurdo",
  "inaceitável",
  "inaceitavel",
  "péssimo",
  "pessimo",
  "reclamação",
  "reclamacao",
  "quero reclamar",
  "vergonha",
  "palhaçada",
  "palhacada",
  "revoltado",
  "revoltada",
  "quiero un reembolso",
  "quiero mi dinero",
  "exijo un reembolso",
  "devuélvanme",
  "devuelvanme",
  "inaceptable",
  "indignante",
  "vergüenza",
  "verguenza",
  "pésimo servicio",
  "pesimo servicio",
  "una queja",
  "quiero quejarme",
  "reclamación",
  "reclamacion",
  "estafa",
  "harto",
  "harta",
] as const;

/** Why the message asks for a person: "complaint", "keyword", or null. `normalized` is normalizeForMatching(message). */
export function detectPersonRequest(
  normalized: string,
  tenantKeywords: readonly string[],
): "complaint" | "keyword" | null {
  if (findPhrase(normalized, COMPLAINT_PHRASES) !== null) return "complaint";
  if (findPhrase(normalized, PERSON_PHRASES) !== null || findPhrase(normalized, tenantKeywords) !== null)
    return "keyword";
  return null;
}
