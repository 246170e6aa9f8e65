import type { FaqEntry } from "../bot-config.ts";

/** The dental clinic's main FAQ entries in Portuguese (Brazil) and Spanish, beside the English ones. */
export const DENTAL_CLINIC_FAQ_PT_ES: FaqEntry[] = [
  {
    id: "hours-pt",
    language: "pt",
    question: "Qual é o horário de funcionamento?",
    answer:
      "Atendemos de segunda a quinta das 8h às 17h, sexta das 8h às 14h e sábado das 9h às 13h. Fechamos aos domingos e feriados.",
    keywords: [
      "horário",
      "horario",
      "funcionamento",
      "abrem",
      "abertos",
      "fecham",
      "sábado",
      "domingo",
      "fim de semana",
    ],
  },
  {
    id: "cleaning-price-pt",
    language: "pt",
    question: "Quanto custa uma limpeza?",
    answer:
      "Uma consulta com limpeza profissional custa US$ 120 sem convênio e leva cerca de 45 minutos; radiografias custam US$ 45 quando necessárias. A maioria dos planos cobre duas limpezas por ano.",
    keywords: ["limpeza", "preço", "preco", "valor", "custa", "check-up", "profilaxia"],
  },
  {
    id: "insurance-pt",
    language: "pt",
    question: "Quais planos odontológicos vocês aceitam?",
    answer:
      "Somos credenciados Delta Dental, Cigna, Aetna, MetLife e Guardian, e enviamos o pedido de reembolso para a maioria dos outros planos PPO. Traga a carteirinha do plano na primeira consulta.",
    keywords: ["plano", "planos", "convênio", "convenio", "seguro", "odontológico", "cobertura"],
  },
  {
    id: "emergency-pt",
    language: "pt",
    question: "Vocês atendem emergências?",
    answer:
      "Sim. Em caso de dor forte, inchaço ou dente quebrado, ligue para (212) 555-0100 e atendemos no mesmo dia. Fora do horário, o mesmo número chama o dentista de plantão.",
    keywords: ["emergência", "emergencia", "urgência", "urgente", "dor", "inchaço", "dente quebrado"],
  },
  {
    id: "location-pt",
    language: "pt",
    question: "Onde fica a clínica e tem estacionamento?",
    answer:
      "Ficamos na 245 Park Avenue South, 2º andar, Nova York. Há estacionamento conveniado na garagem da East 19th Street, e a estação de metrô da 23rd St fica a 3 minutos a pé.",
    keywords: ["endereço", "endereco", "onde", "fica", "localização", "estacionamento", "metrô"],
  },
  {
    id: "financing-pt",
    language: "pt",
    question: "Vocês parcelam o tratamento?",
    answer:
      "Sim — tratamentos acima de US$ 500 podem ser divididos em 6 ou 12 parcelas sem juros pela CareCredit ou pelo nosso plano próprio. Aceitamos os principais cartões e cartões HSA/FSA.",
    keywords: ["parcelar", "parcelas", "parcelam", "parcelamento", "financiamento", "pagamento", "cartão"],
  },
  {
    id: "whitening-pt",
    language: "pt",
    question: "Vocês fazem clareamento dental?",
    answer:
      "Sim. O clareamento no consultório leva cerca de 90 minutos e custa US$ 450; as moldeiras caseiras com gel custam US$ 250. Avaliamos seus dentes antes para garantir que o clareamento é indicado.",
    keywords: ["clareamento", "clarear", "dentes brancos", "manchas"],
  },
  {
    id: "hours-es",
    language: "es",
    question: "¿Cuál es su horario?",
    answer:
      "Abrimos de lunes a jueves de 8 a 17 h, el viernes de 8 a 14 h y el sábado de 9 a 13 h. Cerramos los domingos y festivos.",
    keywords: ["horario", "abren", "abiertos", "cierran", "sábado", "domingo", "fin de semana"],
  },
  {
    id: "cleaning-price-es",
    language: "es",
    question: "¿Cuánto cuesta una limpieza?",
    answer:
      "Una revisión con limpieza profesional cuesta 120 USD sin seguro y dura unos 45 minutos; las radiografías cuestan 45 USD cuando hacen falta. La mayoría de los seguros cubren dos limpiezas al año.",
    keywords: ["limpieza", "precio", "cuesta", "revisión", "profilaxis"],
  },
  {
    id: "insurance-es",
    language: "es",
    question: "¿Qué seguros dentales aceptan?",
    answer:
      "Trabajamos con Delta Dental, Cigna, Aetna, MetLife y Guardian, y tramitamos la mayoría de los demás planes PPO. Trae tu tarjeta del seguro a la primera visita.",
    keywords: ["seguro", "seguros", "cobertura", "aseguradora", "plan dental"],
  },
  {
    id: "emergency-es",
    language: "es",
    question: "¿Atienden urgencias dentales?",
    answer:
      "Sí. Si tienes dolor fuerte, hinchazón o un diente roto, llama al (212) 555-0100 y te atendemos el mismo día. Fuera de horario, el mismo número contacta con el dentista de guardia.",
    keywords: ["urgencia", "urgencias", "emergencia", "urgente", "dolor", "hinchazón", "diente roto"],
  },
  {
    id: "location-es",
    language: "es",
    question: "¿Dónde están y hay estacionamiento?",
    answer:
      "Estamos en 245 Park Avenue South, 2.º piso, Nueva York. Hay estacionamiento validado en el garaje de East 19th Street, y la estación de metro de la calle 23 está a 3 minutos a pie.",
    keywords: ["dirección", "direccion", "dónde", "ubicación", "estacionamiento", "aparcamiento", "parking", "metro"],
  },
  {
    id: "financing-es",
    language: "es",
    question: "¿Ofrecen financiación o pago a plazos?",
    answer:
      "Sí — los tratamientos de más de 500 USD se pueden pagar en 6 o 12 cuotas sin intereses con CareCredit o con nuestro plan propio. Aceptamos las principales tarjetas y las tarjetas HSA/FSA.",
    keywords: ["financiación", "financiacion", "plazos", "cuotas", "mensualidades", "pago", "tarjeta"],
  },
  {
    id: "whitening-es",
    language: "es",
    question: "¿Hacen blanqueamiento dental?",
    answer:
      "Sí. El blanqueamiento en consulta dura unos 90 minutos y cuesta 450 USD; las férulas para casa con gel cuestan 250 USD. Revisamos tus dientes antes para asegurarnos de que es adecuado.",
    keywords: ["blanqueamiento", "blanquear", "dientes blancos", "manchas"],
  },
];
