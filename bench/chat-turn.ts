/**
 * A chat turn without HTTP: what `handleMessage` costs in-process on a SQLite file, 64 turns at a
 * time as the server's group commit sees them, against the same turns with the rule engine's
 * replies looked up (its work taken out). Not a test: it measures and prints a table.
 *
 *   npx bun bench/chat-turn.ts
 *
 * Env: BENCH_TURN_SECONDS (3) per phase, BENCH_TURN_ROUNDS (3) alternating rounds of the two.
 *
 * Same tenant, sessions and message mix as bench/chat.ts (chat-mix.ts), the real store with its
 * WAL checkpoint thread, real clock, limits off. CPU is the process's (checkpoint thread
 * included), per message. The baseline answers each text with the engine's first reply to it,
 * without its actions: what is left is the turn's store work and glue.
 */
import "../src/cli/production-mode.ts";
import { peekTenantWithConfig, requireTenantWithConfig } from "../src/chat/bot-settings.ts";
import { createRuleEngine, type EngineOutput, type ReplyEngine } from "../src/chat/engine/engine.ts";
import { handleMessage } from "../src/chat/handle-message.ts";
import { openWidgetSession } from "../src/chat/open-widget-session.ts";
import { startCheckpointThread } from "../src/db/sqlite/checkpoint-thread.ts";
import { silentLogger } from "../src/lib/log.ts";
import { createTenant } from "../src/tenants/create-tenant.ts";
import { buildSchedule } from "./chat-mix.ts";
import { createBenchDeps, envInt, formatRate, markdownTable, median } from "./lib.ts";

const SESSIONS = 2_000;
const IN_FLIGHT = 64;
const SECONDS = envInt("BENCH_TURN_SECONDS", 3);
const ROUNDS = envInt("BENCH_TURN_ROUNDS", 3);

/** The rule engine with each text's first reply remembered and given again, actions dropped. */
function lookedUpEngine(engine: ReplyEngine): ReplyEngine {
  const replies = new Map<string, EngineOutput>();
  return {
    reply: engine.reply,
    replyUnlessSlotsNeeded(input) {
      let output = replies.get(input.message);
      if (!output) {
        const fresh = engine.replyUnlessSlotsNeeded?.(input) ?? null;
        if (!fresh) return null;
        output = { ...fresh, actions: [] };
        replies.set(input.message, output);
      }
      return output;
    },
  };
}

async function main(): Promise<void> {
  const deps = createBenchDeps({ PARLEY_RATE_LIMITS: "off" });
  const checkpoints = startCheckpointThread(deps.config.dbPath, silentLogger, {
    finishOnServer: () => deps.store.maintenance.checkpoint(),
  });
  try {
    const { id: tenantId } = await createTenant(deps, {
      name: "Bench Dental",
      sector: "dental-clinic",
      plan: "business",
    });
    const sessions: string[] = [];
    for (let i = 0; i < SESSIONS; i++)
      sessions.push((await openWidgetSession(deps, { tenantId, origin: null, admit: () => undefined })).session.id);
    const schedule = buildSchedule();
    const engines = { real: createRuleEngine(), lookedUp: lookedUpEngine(createRuleEngine()) };
    let sent = 0;

    const phase = async (engine: ReplyEngine, seconds: number) => {
      const first = sent;
      const cpuBefore = process.cpuUsage();
      const until = performance.now() + seconds * 1000;
      const lane = async () => {
        while (performance.now() < until) {
          const k = sent++;
          const cached = peekTenantWithConfig(deps, tenantId);
          const lookups = cached ?? { ...(await requireTenantWithConfig(deps, tenantId)), version: undefined };
          await handleMessage(
            deps,
            {
              tenant: lookups.tenant,
              config: lookups.config,
              sessionId: sessions[k % sessions.length],
              text: schedule[k % schedule.length] as string,
              channel: "widget",
              lookupVersion: lookups.version,
            },
            { engine },
          );
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
      const cpu = process.cpuUsage(cpuBefore);
      const messages = sent - first;
      return { cpuMicros: (cpu.user + cpu.system) / messages, perSecond: messages / seconds };
    };

    await phase(engines.real, 2);
    const real: { cpuMicros: number; perSecond: number }[] = [];
    const lookedUp: { cpuMicros: number; perSecond: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      real.push(await phase(engines.real, SECONDS));
      lookedUp.push(await phase(engines.lookedUp, SECONDS));
      console.error(
        `round ${round + 1}: turn ${real.at(-1)?.cpuMicros.toFixed(1)} µs, engine looked up ${lookedUp.at(-1)?.cpuMicros.toFixed(1)} µs`,
      );
    }
    const cpu = (phases: typeof real) => median(phases.map((each) => each.cpuMicros));
    const rate = (phases: typeof real) => formatRate(median(phases.map((each) => each.perSecond)));
    const range = (phases: typeof real) =>
      `${Math.min(...phases.map((each) => each.cpuMicros)).toFixed(0)}–${Math.max(...phases.map((each) => each.cpuMicros)).toFixed(0)} µs`;
    console.log(
      markdownTable(
        ["measure", "result", "baseline (same run)"],
        [
          [
            `CPU a turn, handleMessage in-process, ${IN_FLIGHT} at a time (median of ${ROUNDS} alternated rounds)`,
            `${cpu(real).toFixed(1)} µs (${range(real)}; ${rate(real)})`,
            `engine's replies looked up: ${cpu(lookedUp).toFixed(1)} µs (${range(lookedUp)}; ${rate(lookedUp)})`,
          ],
          ["the rule engine's share of a turn", `${(cpu(real) - cpu(lookedUp)).toFixed(1)} µs`, "—"],
        ],
      ),
    );
  } finally {
    await checkpoints.stop();
    deps.dispose();
  }
}

await main();
