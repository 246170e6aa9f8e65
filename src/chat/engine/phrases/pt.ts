import type { Weekday } from "../bot-config.ts";
import type { Phrases } from "./types.ts";

const WEEKDAYS: Record<Weekday, string> = {
  mon: "às segundas",
  tue: "às terças",
  wed: "às quartas",
  thu: "às quintas",
  fri: "às sextas",
  sat: "aos sábados",
  sun: "aos domingos",
};
const FIELD = { name: "do seu nome", phone: "de um telefone", email: "do seu e-mail" } as const;
const withName = (firstName: string): string => (firstName ? `, ${firstName}` : "");
const UNITS = { day: ["dia", "dias"], hour: ["hora", "horas"], minute: ["minuto", "minutos"] } as const;

/** Portuguese (Brazil). */
export const PT: Phrases = {
  quick: {
    book: "Agendar um horário",
    human: "Falar com uma pessoa",
    yesBook: "Sim, pode agendar",
    otherTime: "Escolher outro horário",
    noThanks: "Não, obrigado",
  },
  greeting: (botName) => `Olá! Sou ${botName}, o assistente virtual. Como posso ajudar?`,
  handoff: {
    keyword:
      "Claro — pedi para alguém da nossa equipe entrar nesta conversa. Vão responder aqui mesmo assim que puderem.",
    low_confidence:
      "Desculpe não ter conseguido ajudar. Pedi para alguém da nossa equipe entrar nesta conversa — vão responder aqui mesmo assim que puderem.",
    already: "Alguém da nossa equipe já foi avisado e vai responder aqui mesmo assim que puder.",
    urgent: "Pedi para alguém da nossa equipe entrar nesta conversa agora mesmo — vão responder aqui.",
    complaint:
      "Sinto muito por isso. Pedi para alguém da nossa equipe entrar nesta conversa — vão responder aqui mesmo assim que puderem e resolver com você.",
  },
  handoffAway: {
    offer:
      "Nossa equipe não está agora, então ninguém pode responder neste momento. Deixe aqui seu nome, seu telefone ou e-mail e sua pergunta: a equipe vê assim que voltar e entra em contato.",
    already: "Sua mensagem está com a equipe: eles veem assim que voltarem.",
  },
  fallback: "Desculpe, acho que não entendi. Veja algumas coisas em que posso ajudar — ou reformule a pergunta.",
  fallbackAfterHandoff: "Não tenho certeza sobre isso, mas alguém da nossa equipe vai responder aqui em breve.",
  emptyMessage: "Desculpe, não entendi — pode digitar sua pergunta?",
  thanks: "De nada! Posso ajudar em mais alguma coisa?",
  dismissed: "Sem problema. Posso ajudar em mais alguma coisa?",
  goodbye: "Obrigado pela conversa — tenha um ótimo dia!",
  leadStopped: "Sem problema — não vou pedir seus dados. Posso ajudar em mais alguma coisa?",
  bookingStopped: "Sem problema, não vou agendar nada. Posso ajudar em mais alguma coisa?",
  askTime: 'Claro! Qual dia e horário seria melhor para você? Por exemplo "amanhã às 10h".',
  otherTime: "Sem problema — qual dia e horário seria melhor?",
  askTimeAgain: 'Desculpe, não entendi a data. Qual dia e horário seria melhor? Por exemplo "segunda que vem às 14h".',
  bookingDisabled:
    "Não fazemos agendamentos por este chat, mas posso pedir para a equipe ligar para combinar um horário.",
  softLeadOffer: "Se quiser um orçamento personalizado, posso pedir para a equipe entrar em contato.",
  leadIntro: "Posso ajudar com isso — só vou anotar alguns dados para a equipe retornar o contato.",
  phoneWaived: "Sem problema — a equipe vai responder por e-mail.",
  phoneNeeded:
    "Entendo. A equipe precisa de um telefone para dar seguimento, então não consigo encaminhar sem um. Pode continuar perguntando o que quiser, ou toque em “Falar com uma pessoa” para falar com a equipe aqui mesmo.",
  notKnown: "Desculpe, não tenho essa informação.",
  notKnownPerson: "Alguém da nossa equipe pode responder — quer que eu chame alguém para esta conversa?",
  notKnownMessage: "A equipe não está disponível agora — quer deixar uma mensagem? Diga sim e eu anoto seus dados.",
  notCovered: "Não tenho essa resposta aqui, mas a equipe tem — vão explicar quando entrarem em contato.",
  changeBooking:
    "Não consigo alterar nem cancelar agendamentos por este chat, mas a equipe consegue — toque em “Falar com uma pessoa” e resolvem com você aqui mesmo.",
  urgentOffer:
    "Quer que alguém da nossa equipe responda aqui agora? Toque em “Falar com uma pessoa” ou apenas diga sim.",
  urgentNoAnswer: "Sinto muito — parece urgente.",
  notSureAbout: (part) =>
    `Não tenho certeza sobre “${part}” — alguém da equipe pode responder (toque em “Falar com uma pessoa”).`,
  zone: (label, timeZone) =>
    `Todos os horários que informo são no horário local do estabelecimento, ${label} (${timeZone}).`,
  thanksName: (firstName) => `Obrigado, ${firstName}!`,
  askName: "Pode me dizer seu nome, por favor?",
  askPhone: "Qual o melhor telefone para falar com você?",
  askEmail: "E o seu e-mail?",
  great: "Ótimo.",
  stillNeed: (field) =>
    `Desculpe, ainda preciso ${FIELD[field]} para continuar (ou diga "cancelar" e eu paro de perguntar).`,
  phoneProblem: {
    too_short: "Esse telefone parece curto demais — inclua o DDD, por favor.",
    too_long: "Esse telefone tem dígitos demais — pode conferir?",
    invalid_country: "Não consegui identificar o país desse número — comece com + e o código do país, por favor.",
    invalid: "Esse telefone não parece válido — inclua o DDD, por favor.",
  },
  emailProblem: {
    missing_at: "Parece que falta o @ nesse e-mail — pode digitar de novo?",
    missing_domain: "Falta o domínio nesse e-mail (como @exemplo.com) — pode conferir?",
    unknown_tld:
      "Esse e-mail não termina em um domínio real — pode conferir a parte depois do último ponto (como .com)?",
    invalid: "Esse e-mail não parece certo — pode conferir?",
  },
  leadThanks: (firstName, phone, email) =>
    `Obrigado, ${firstName}! Passei seus dados para a equipe — vão ${phone ? `entrar em contato pelo ${phone} ou pelo ${email}` : `responder para ${email}`} em breve. Posso ajudar em mais alguma coisa?`,
  detailsKnown: (firstName) =>
    `Obrigado — já temos seus dados${withName(firstName)}. Posso ajudar em mais alguma coisa?`,
  updatedField: {
    name: (value) => `seu nome para ${value}`,
    phone: (value) => `seu telefone para ${value}`,
    email: (value) => `seu e-mail para ${value}`,
  },
  detailsUpdated: (firstName, changes) =>
    `Obrigado${withName(firstName)} — atualizei ${changes.join(" e ")}. Posso ajudar em mais alguma coisa?`,
  offerSlot: (when) => `${when} está livre. Posso agendar para você?`,
  shallIBook: (when) => `Posso agendar ${when} para você?`,
  answerYesNo: "Responda sim ou não, por favor.",
  booked: (when, firstName) =>
    `Agendado para ${when}${withName(firstName)}! Se precisar mudar, é só avisar. Posso ajudar em mais alguma coisa?`,
  holdSlot: (when) => `Ótimo — para reservar ${when} só preciso de alguns dados.`,
  whenCome: "Quando você gostaria de vir?",
  noted: "Obrigado, anotei.",
  proposals: (zone, list) =>
    `Os próximos horários livres (${zone}) são: ${list}. Toque em um, ou me diga outro dia e horário.`,
  noFreeTimes: (days) => `Não encontrei horário livre nos próximos ${days} dias — quer falar com uma pessoa?`,
  haveOn: (when) => `Estes são os horários de ${when}.`,
  noFreeOn: (when) => `Desculpe, não tenho horários livres em ${when}.`,
  haveWindow: (window) => `Estes são os horários ${window}.`,
  noFreeWindow: (window) => `Desculpe, não tenho horários livres ${window}.`,
  refusal: {
    past: (when) => `${when} já passou.`,
    tooSoon: (when, notice) => `${when} é cedo demais — precisamos de pelo menos ${notice} de antecedência.`,
    tooFar: (days) => `Só consigo agendar com até ${days} dias de antecedência.`,
    taken: (when) => `Desculpe, ${when} já está ocupado.`,
    misaligned: (minutes, when) =>
      `Os horários começam a cada ${minutes} minutos a partir da abertura, então ${when} não é um início de horário.`,
    closedDay: (weekday) => `Fechamos ${WEEKDAYS[weekday]}.`,
    closedHours: (weekday, open, close, when) =>
      `${WEEKDAYS[weekday].replace(/^./, (letter) => letter.toUpperCase())} abrimos das ${open} às ${close}, então ${when} está fora do horário.`,
  },
  locale: "pt-BR",
  window: {
    morning: "de manhã",
    afternoon: "à tarde",
    evening: "à noite",
    after: (clock) => `depois das ${clock}`,
    before: (clock) => `antes das ${clock}`,
    between: (from, to) => `entre ${from} e ${to}`,
  },
  notice: (amount, unit) => `${amount} ${UNITS[unit][amount === 1 ? 0 : 1]}`,
};
