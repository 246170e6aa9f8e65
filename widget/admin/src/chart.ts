/**
 * Hand-drawn SVG bar charts for the Overview tab: no library, no CDN, nothing but DOM calls
 * (the page's CSP allows no inline script, and SVG built with createElementNS needs none).
 */
import { h } from "./dom.ts";

const NS = "http://www.w3.org/2000/svg";
const WIDTH = 420;
const HEIGHT = 150;
const LEFT = 30;
const BOTTOM = 18;
const TOP = 6;

/** One bar: stacked segments from the bottom up, each with its CSS class (colour) and value. */
export interface Bar {
  day: string;
  segments: Array<{ value: number; kind: string }>;
  /** Hover text (an SVG <title>), read by screen readers as well. */
  label: string;
}

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A figure with a caption, a headline number and a bar per day; `max` fixes the scale (100 for percentages). */
export function barChart(options: {
  id: string;
  title: string;
  headline: string;
  summary: string;
  bars: Bar[];
  max?: number;
  unit?: string;
}): HTMLElement {
  const { bars } = options;
  const top =
    options.max ?? Math.max(1, ...bars.map((bar) => bar.segments.reduce((sum, segment) => sum + segment.value, 0)));
  const plotWidth = WIDTH - LEFT;
  const plotHeight = HEIGHT - BOTTOM - TOP;
  const step = plotWidth / Math.max(1, bars.length);
  const chart = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: "img",
    "aria-label": `${options.title}: ${options.summary}`,
  });
  const unit = options.unit ?? "";
  chart.append(
    svg("line", { class: "axis", x1: LEFT, y1: TOP + plotHeight, x2: WIDTH, y2: TOP + plotHeight }),
    svg("text", { x: LEFT - 4, y: TOP + 8, "text-anchor": "end" }, `${top}${unit}`),
    svg("text", { x: LEFT - 4, y: TOP + plotHeight, "text-anchor": "end" }, `0${unit}`),
  );
  bars.forEach((bar, index) => {
    const group = svg("g", { "data-day": bar.day });
    group.append(svg("title", {}, bar.label));
    let base = TOP + plotHeight;
    for (const segment of bar.segments) {
      const height = (segment.value / top) * plotHeight;
      if (height <= 0) continue;
      base -= height;
      group.append(
        svg("rect", {
          class: `bar ${segment.kind}`,
          x: (LEFT + index * step + 1).toFixed(1),
          y: base.toFixed(1),
          width: Math.max(1, step - 2).toFixed(1),
          height: height.toFixed(1),
        }),
      );
    }
    chart.append(group);
  });
  // Day labels at the start, middle and end of the range.
  for (const index of [...new Set([0, Math.floor((bars.length - 1) / 2), bars.length - 1])]) {
    const bar = bars[index];
    if (!bar) continue;
    const anchor = index === 0 ? "start" : index === bars.length - 1 ? "end" : "middle";
    const x = index === 0 ? LEFT : index === bars.length - 1 ? WIDTH : LEFT + (index + 0.5) * step;
    chart.append(svg("text", { x: x.toFixed(1), y: HEIGHT - 4, "text-anchor": anchor }, bar.day.slice(5)));
  }
  return h(
    "figure",
    { class: "chart", id: options.id },
    h("figcaption", {}, options.title, h("span", { class: "headline" }, options.headline)),
    chart,
  );
}
