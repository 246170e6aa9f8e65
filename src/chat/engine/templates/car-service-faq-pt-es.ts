import type { FaqEntry } from "../bot-config.ts";

/** The car service's main FAQ entries in Portuguese (Brazil) and Spanish, beside the English ones. */
export const CAR_SERVICE_FAQ_PT_ES: FaqEntry[] = [
  {
    id: "hours-pt",
    language: "pt",
    question: "Qual é o horário da oficina?",
    answer: "A oficina abre de segunda a sexta das 7h às 18h e sábado das 8h às 14h. Fechamos aos domingos.",
    keywords: ["horário", "horario", "funcionamento", "abrem", "abertos", "fecham", "sábado", "domingo"],
  },
  {
    id: "oil-change-pt",
    language: "pt",
    question: "Quanto custa a troca de óleo?",
    answer:
      "A troca de óleo convencional custa US$ 49,95, semissintético US$ 69,95 e sintético US$ 89,95. Todas incluem filtro novo, inspeção de 21 itens e calibragem dos pneus.",
    keywords: ["troca de óleo", "óleo", "oleo", "sintético", "preço", "valor", "custa"],
  },
  {
    id: "service-duration-pt",
    language: "pt",
    question: "Quanto tempo demora uma revisão?",
    answer:
      "A troca de óleo leva cerca de 45 minutos e a revisão completa de 2 a 3 horas. Você pode esperar na nossa sala (Wi-Fi e café grátis) ou deixar o carro.",
    keywords: ["quanto tempo", "demora", "duração", "esperar", "pronto", "revisão"],
  },
  {
    id: "location-pt",
    language: "pt",
    question: "Onde fica a oficina?",
    answer:
      "Ficamos na 2150 N Elston Ave, Chicago, IL 60614, perto da saída Fullerton da I-90/94, com estacionamento grátis para clientes.",
    keywords: ["endereço", "endereco", "onde", "fica", "localização", "estacionamento"],
  },
  {
    id: "breakdown-pt",
    language: "pt",
    question: "Meu carro quebrou — vocês podem ajudar?",
    answer:
      "Ligue para (312) 555-0142 e mandamos nosso guincho parceiro, normalmente em até uma hora em Chicago (guincho grátis até a oficina num raio de 10 milhas quando fazemos o conserto). Se estiver numa rodovia ou alguém se feriu, vá para um lugar seguro e ligue 911 primeiro.",
    keywords: ["quebrou", "guincho", "reboque", "pane", "não liga", "emergência", "urgente", "acidente"],
  },
  {
    id: "brakes-pt",
    language: "pt",
    question: "Quanto custa trocar as pastilhas de freio?",
    answer:
      "A troca de pastilhas custa normalmente de US$ 189 a US$ 289 por eixo, conforme o veículo. Se os discos também precisarem de troca, mostramos e fazemos o orçamento antes.",
    keywords: ["freio", "freios", "pastilhas", "discos", "barulho"],
  },
  {
    id: "hours-es",
    language: "es",
    question: "¿Cuál es el horario del taller?",
    answer: "El taller abre de lunes a viernes de 7 a 18 h y el sábado de 8 a 14 h. Cerramos los domingos.",
    keywords: ["horario", "abren", "abiertos", "cierran", "sábado", "domingo"],
  },
  {
    id: "oil-change-es",
    language: "es",
    question: "¿Cuánto cuesta el cambio de aceite?",
    answer:
      "El cambio de aceite convencional cuesta 49,95 USD, semisintético 69,95 USD y sintético 89,95 USD. Todos incluyen filtro nuevo, inspección de 21 puntos y revisión de la presión de los neumáticos.",
    keywords: ["cambio de aceite", "aceite", "sintético", "precio", "cuesta"],
  },
  {
    id: "service-duration-es",
    language: "es",
    question: "¿Cuánto tarda un servicio?",
    answer:
      "Un cambio de aceite tarda unos 45 minutos y un servicio completo de 2 a 3 horas. Puedes esperar en nuestra sala (wifi y café gratis) o dejar el coche.",
    keywords: ["cuánto tarda", "tarda", "tiempo", "duración", "esperar", "listo"],
  },
  {
    id: "location-es",
    language: "es",
    question: "¿Dónde está el taller y tienen estacionamiento?",
    answer:
      "Estamos en 2150 N Elston Ave, Chicago, IL 60614, junto a la salida Fullerton de la I-90/94, con estacionamiento gratis para clientes.",
    keywords: ["dirección", "direccion", "dónde", "ubicación", "estacionamiento", "aparcamiento", "parking"],
  },
  {
    id: "breakdown-es",
    language: "es",
    question: "Mi coche se averió — ¿pueden ayudarme?",
    answer:
      "Llama al (312) 555-0142 y enviamos a nuestra grúa asociada, normalmente en menos de una hora en Chicago (remolque gratis hasta el taller en un radio de 10 millas si hacemos la reparación). Si estás en una autopista o hay heridos, ponte a salvo y llama primero al 911.",
    keywords: ["averió", "avería", "grúa", "remolque", "no arranca", "emergencia", "urgente", "accidente"],
  },
  {
    id: "brakes-es",
    language: "es",
    question: "¿Cuánto cuestan las pastillas de freno?",
    answer:
      "Cambiar las pastillas cuesta normalmente de 189 a 289 USD por eje, según el vehículo. Si los discos también hay que cambiarlos, te los enseñamos y te damos presupuesto antes.",
    keywords: ["freno", "frenos", "pastillas", "discos", "ruido"],
  },
];
