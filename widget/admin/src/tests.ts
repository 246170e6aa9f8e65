/** Test: the owner's saved cases, a run in the sandbox, and each case's last result beside it. */
import { api } from "./api.ts";
import { busy, byId, fillRows, h, idCode, say, sayError } from "./dom.ts";
import type { CaseView } from "../../../src/test-set/cases.ts";
import type { CaseChange, CaseResult, RunReport, RunSummaryView } from "../../../src/test-set/run-test-set.ts";

const value = (id: string) => byId<HTMLInputElement>(id).value.trim();

const questionText = (question: CaseView["question"]) => (Array.isArray(question) ? question.join(" → ") : question);

function expects(entry: CaseView): string {
  const { contains, not_contains, action, source } = entry.expect;
  return [
    ...(contains ?? []).map((text) => `contains “${text}”`),
    ...(not_contains ?? []).map((text) => `not “${text}”`),
    action ? `action: ${action}` : "",
    source ? `cites ${source}` : "",
  ]
    .filter(Boolean)
    .join("; ");
}

function verdict(result: CaseResult | undefined): Node | string {
  if (!result) return "not run yet";
  return h("span", { class: result.passed ? "ok-text" : "error-text" }, result.passed ? "Pass" : "FAIL");
}

function failedChecks(result: CaseResult | undefined): string {
  const answer = result?.answers[0];
  if (!answer) return "";
  if (answer.error) return answer.error;
  return (
    answer.checks
      .filter((check) => !check.passed)
      .map((check) => `${check.expectation} “${check.expected}”`)
      .join("; ") || "—"
  );
}

const change = (entry: CaseChange | undefined): string =>
  !entry ? "" : entry.before === "new" ? "new" : `${entry.before} → ${entry.after}`;

export function wireTests() {
  const message = byId("tests-msg");

  async function lastRun(): Promise<RunReport | null> {
    const runs = await api<{ data: RunSummaryView[] }>("GET", "/chatbot/tests/runs");
    const newest = runs.data[0];
    return newest ? api<RunReport>("GET", `/chatbot/tests/runs/${encodeURIComponent(newest.run_id)}`) : null;
  }

  async function show(run?: RunReport | null) {
    try {
      const cases = await api<{ data: CaseView[] }>("GET", "/chatbot/tests");
      const report = run === undefined ? await lastRun() : run;
      const results = new Map((report?.results ?? []).map((result) => [result.case_id, result]));
      const changes = new Map((report?.changes ?? []).map((entry) => [entry.case_id, entry]));
      fillRows(
        byId<HTMLTableSectionElement>("tests-rows"),
        cases.data.map((entry) => {
          const result = results.get(entry.case_id);
          const answer = result?.answers[0];
          const remove: HTMLButtonElement = h(
            "button",
            {
              type: "button",
              "aria-label": `Delete the case ${questionText(entry.question)}`,
              onclick: () => deleteCase(remove, entry),
            },
            "Delete",
          );
          return [
            questionText(entry.question),
            expects(entry),
            verdict(result),
            answer?.engine === "model" ? "model" : answer ? "rule engine" : "",
            h("div", { class: "pre" }, answer?.reply ?? ""),
            answer && answer.sources.length > 0
              ? h("span", {}, ...answer.sources.map((source) => idCode(source.title)))
              : "—",
            failedChecks(result),
            change(changes.get(entry.case_id)),
            h("div", { class: "acts" }, remove),
          ];
        }),
        "No test cases yet: add a question a visitor might ask above.",
      );
      if (report)
        say(message, report.failed > 0 ? "error" : "ok", `Last run: ${report.passed} passed, ${report.failed} failed.`);
    } catch (error) {
      sayError(message, error);
    }
  }

  async function deleteCase(button: HTMLButtonElement, entry: CaseView) {
    if (button.dataset.armed !== "true") {
      button.dataset.armed = "true";
      button.textContent = "Really delete?";
      return;
    }
    await busy(button, async () => {
      try {
        await api("DELETE", `/chatbot/tests/${encodeURIComponent(entry.case_id)}`);
        await show();
      } catch (error) {
        sayError(message, error);
      }
    });
  }

  const form = byId<HTMLFormElement>("tests-form");
  form.addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
    const target = byId("tests-form-msg");
    if (!button) return;
    const contains = value("tests-contains");
    const notContains = value("tests-not-contains");
    const action = byId<HTMLSelectElement>("tests-action").value;
    const body = {
      question: value("tests-question"),
      expect: {
        ...(contains ? { contains: [contains] } : {}),
        ...(notContains ? { not_contains: [notContains] } : {}),
        ...(action ? { action } : {}),
      },
    };
    void busy(button, async () => {
      try {
        await api("POST", "/chatbot/tests", body);
        form.reset();
        say(target, "ok", "Case added. Run the cases to see its verdict.");
        await show();
      } catch (error) {
        sayError(target, error);
      }
    });
  });

  const runButton = byId<HTMLButtonElement>("tests-run");
  runButton.addEventListener("click", () =>
    busy(runButton, async () => {
      say(message, "", "Running…");
      try {
        await show(await api<RunReport>("POST", "/chatbot/tests/run"));
      } catch (error) {
        sayError(message, error);
      }
    }),
  );

  return { show: () => show() };
}
