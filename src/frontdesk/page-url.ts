import { AppError } from "../lib/app-error.ts";

const isWebUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
};

/**
 * The page a widget chat starts on, for the inbox: the widget's `page_url` (422 when it is not
 * an http(s) URL), else the request's Referer when it is one (a browser often sends only the
 * origin across sites), else null.
 */
export function pageUrlOf(given: string | undefined, referer: string | null): string | null {
  if (given !== undefined) {
    if (!isWebUrl(given))
      throw new AppError("validation_failed", 422, "page_url: must be an http or https URL", [
        { field: "page_url", message: "must be an http or https URL" },
      ]);
    return given;
  }
  return referer && referer.length <= 2048 && isWebUrl(referer) ? referer : null;
}
