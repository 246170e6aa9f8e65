import type { FaqEntry } from "../bot-config.ts";

/** The beauty salon's main FAQ entries in Portuguese (Brazil) and Spanish, beside the English ones. */
export const BEAUTY_SALON_FAQ_PT_ES: FaqEntry[] = [
  {
    id: "hours-pt",
    language: "pt",
    question: "Qual é o horário do salão?",
    answer:
      "Abrimos de terça a sexta das 9h às 19h (quinta até as 21h), sábado das 8h30 às 17h e domingo das 10h às 16h. Fechamos às segundas.",
    keywords: ["horário", "horario", "funcionamento", "abrem", "abertos", "fecham", "domingo", "segunda"],
  },
  {
    id: "haircut-prices-pt",
    language: "pt",
    question: "Quanto custa um corte de cabelo?",
    answer:
      "Corte feminino com escova a partir de US$ 85, corte masculino US$ 45 e infantil (até 12 anos) US$ 35. Coloração a partir de US$ 120 para retoque de raiz, e luzes completas a partir de US$ 220.",
    keywords: ["corte", "cabelo", "feminino", "masculino", "coloração", "luzes", "preço", "valor", "custa"],
  },
  {
    id: "patch-test-pt",
    language: "pt",
    question: "Preciso fazer teste de alergia antes da coloração?",
    answer:
      "Sim, se for sua primeira vez conosco ou se não colore aqui há seis meses. O teste leva cinco minutos e deve ser feito pelo menos 48 horas antes da coloração.",
    keywords: ["teste de alergia", "teste", "alergia", "coloração", "tintura"],
  },
  {
    id: "location-pt",
    language: "pt",
    question: "Onde fica o salão e onde posso estacionar?",
    answer:
      "Ficamos na Shop 4, 112 Crown Street, Surry Hills. Há estacionamento de 2 horas na Crown Street e um estacionamento Secure Parking na Foveaux Street.",
    keywords: ["endereço", "endereco", "onde", "fica", "estacionamento", "estacionar"],
  },
  {
    id: "reaction-pt",
    language: "pt",
    question: "O que fazer se tiver uma reação depois de um tratamento?",
    answer:
      "Lave a área com água fria, não aplique mais nada e ligue para (02) 9360 0112 para atendermos você na hora. Se o rosto, os lábios ou a garganta incharem ou tiver dificuldade para respirar, ligue 000 agora.",
    keywords: ["reação", "reacao", "alergia", "alérgica", "irritação", "ardendo", "inchaço", "emergência", "urgente"],
  },
  {
    id: "hours-es",
    language: "es",
    question: "¿Cuál es el horario del salón?",
    answer:
      "Abrimos de martes a viernes de 9 a 19 h (jueves hasta las 21 h), el sábado de 8:30 a 17 h y el domingo de 10 a 16 h. Cerramos los lunes.",
    keywords: ["horario", "abren", "abiertos", "cierran", "domingo", "lunes"],
  },
  {
    id: "haircut-prices-es",
    language: "es",
    question: "¿Cuánto cuesta un corte de pelo?",
    answer:
      "El corte de mujer con peinado desde 85 USD, el de hombre 45 USD y el infantil (menores de 12) 35 USD. El color desde 120 USD para retocar raíces, y las mechas completas desde 220 USD.",
    keywords: ["corte", "pelo", "cabello", "mujer", "hombre", "color", "mechas", "precio", "cuesta"],
  },
  {
    id: "patch-test-es",
    language: "es",
    question: "¿Necesito una prueba de alergia antes del tinte?",
    answer:
      "Sí, si es tu primera vez con nosotros o no te has teñido aquí en seis meses. La prueba dura cinco minutos y debe hacerse al menos 48 horas antes del tinte.",
    keywords: ["prueba de alergia", "prueba", "alergia", "tinte", "coloración"],
  },
  {
    id: "location-es",
    language: "es",
    question: "¿Dónde está el salón y dónde puedo aparcar?",
    answer:
      "Estamos en Shop 4, 112 Crown Street, Surry Hills. Hay estacionamiento de 2 horas en Crown Street y un garaje Secure Parking en Foveaux Street.",
    keywords: ["dirección", "direccion", "dónde", "ubicación", "estacionamiento", "aparcar", "aparcamiento", "parking"],
  },
  {
    id: "reaction-es",
    language: "es",
    question: "¿Qué hago si tengo una reacción después de un tratamiento?",
    answer:
      "Enjuaga la zona con agua fría, no te apliques nada más y llámanos al (02) 9360 0112 para atenderte enseguida. Si se te hinchan la cara, los labios o la garganta o te cuesta respirar, llama ya al 000.",
    keywords: [
      "reacción",
      "reaccion",
      "alergia",
      "alérgica",
      "irritación",
      "ardor",
      "hinchazón",
      "emergencia",
      "urgente",
    ],
  },
];
