/**
 * Text colour on the host's accent colour. `data-color` can be anything CSS accepts (#ffd400,
 * "navy", oklch(…)); the browser itself turns it into sRGB pixels on a 1×1 canvas, and the
 * text becomes black or white, whichever contrasts more. One of the two always reaches
 * 4.58:1 (WCAG AA asks 4.5:1 for normal text).
 */
export function readableTextOn(color: string): "#000" | "#fff" {
  const context = document.createElement("canvas").getContext("2d");
  if (!context) return "#fff";
  context.fillStyle = "#fff";
  context.fillRect(0, 0, 1, 1);
  context.fillStyle = color;
  context.fillRect(0, 0, 1, 1);
  const [r = 0, g = 0, b = 0] = context.getImageData(0, 0, 1, 1).data;
  const light = relativeLuminance(r, g, b);
  return contrastRatio(1, light) >= contrastRatio(light, 0) ? "#fff" : "#000";
}

/** WCAG 2 relative luminance of an sRGB colour (0–255 channels). */
export function relativeLuminance(r: number, g: number, b: number): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

export const contrastRatio = (lighter: number, darker: number): number => (lighter + 0.05) / (darker + 0.05);
