/**
 * The widget's only CSS, adopted into its shadow root as a constructable stylesheet: no
 * <style> element and no style attribute, so a host CSP without 'unsafe-inline' allows it.
 */
const LIGHT = "--bg:#fff;--fg:#1b1f24;--muted:#5b6470;--line:#e3e6ea;--bot:#f1f3f5;--shadow:0 8px 28px rgba(0,0,0,.18)";
const DARK =
  "--bg:#1c1f24;--fg:#eef1f4;--muted:#a4adb8;--line:#343a42;--bot:#2a2f36;--shadow:0 8px 28px rgba(0,0,0,.5)";

export const CSS_TEXT = `
:host{all:initial!important}
.w{--accent:#2563eb;--on-accent:#fff;${LIGHT};font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg)}
.w.dark{${DARK}}
@media (prefers-color-scheme:dark){.w.auto{${DARK}}}
*{box-sizing:border-box}
button,input,textarea{font:inherit;color:inherit}
.launcher{position:fixed;bottom:calc(20px + env(safe-area-inset-bottom,0px));right:20px;z-index:2147483000;width:56px;height:56px;border-radius:50%;border:0;background:var(--accent);color:var(--on-accent);cursor:pointer;box-shadow:var(--shadow);display:grid;place-items:center}
.left .launcher{right:auto;left:20px}
.launcher svg{width:26px;height:26px;fill:currentColor}
.launcher:focus-visible,.panel button:focus-visible,.panel input:focus-visible,.panel textarea:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.badge{position:absolute;top:-4px;right:-4px;min-width:20px;height:20px;padding:0 6px;border-radius:10px;background:#d92d20;color:#fff;font-size:12px;font-weight:600;line-height:20px;text-align:center}
.panel{position:fixed;bottom:88px;right:20px;z-index:2147483001;width:370px;height:min(560px,calc(100vh - 108px));display:flex;flex-direction:column;background:var(--bg);color:var(--fg);border:1px solid var(--line);border-radius:14px;box-shadow:var(--shadow);overflow:hidden}
.left .panel{right:auto;left:20px}
[hidden]{display:none!important}
.head{display:flex;align-items:center;gap:8px;padding:12px 14px;background:var(--accent);color:var(--on-accent)}
.hd{flex:1;min-width:0;display:flex;flex-direction:column}
.title,.sub{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.title{font-weight:600;font-size:15px}.sub{font-size:12px}
.x{border:0;background:none;color:inherit;font-size:24px;line-height:1;cursor:pointer;width:44px;height:44px;margin:-8px -8px -8px 0;border-radius:8px}
.log{flex:1;overflow-y:auto;padding:14px;display:flex;flex-direction:column;gap:8px}
.m{max-width:85%;padding:8px 12px;border-radius:14px;white-space:pre-wrap;overflow-wrap:anywhere}
.bot,.operator{align-self:flex-start;background:var(--bot);border-bottom-left-radius:4px}
.visitor{align-self:flex-end;background:var(--accent);color:var(--on-accent);border-bottom-right-radius:4px}
.m.failed{background:var(--bot);color:var(--fg);outline:2px dashed #d92d20;outline-offset:-2px}.fail{display:block;font-size:12px;margin-top:4px}
.retry{border:1px solid currentColor;background:none;border-radius:14px;padding:0 12px;margin-top:6px;min-height:32px;cursor:pointer;font-weight:600}
.notice{align-self:center;background:none;color:var(--muted);font-size:13px;text-align:center}
.src{display:block;font-size:11px;margin-top:4px;color:var(--muted)}.src>*{margin-right:8px}.src a{color:inherit}.who{display:block;font-size:11px;font-weight:600;color:var(--muted);margin-bottom:2px}
.who::before{content:attr(data-initial);display:inline-grid;place-items:center;width:18px;height:18px;border-radius:50%;background:var(--accent);color:var(--on-accent);font-size:10px;margin-right:6px}
.m[data-when]::after{content:attr(data-when);display:block;font-size:10px;opacity:.75;margin-top:2px}
.seen{align-self:flex-end;font-size:11px;color:var(--muted);margin-top:-4px}
.rate{align-self:stretch;background:var(--bot);border-radius:14px;padding:10px 12px}
.rate fieldset{border:0;margin:0;padding:0;display:flex;flex-direction:column;gap:8px}.rate legend{font-weight:600;padding:0;margin-bottom:8px}
.stars{display:flex;gap:6px}.stars input{position:absolute;opacity:0;width:1px;height:1px}
.stars label{flex:1;min-height:44px;display:grid;place-items:center;border:1px solid var(--accent);border-radius:10px;background:var(--bg);cursor:pointer;font-weight:600}
.stars input:checked+label{background:var(--accent);color:var(--on-accent)}.stars input:focus-visible+label{outline:3px solid var(--accent);outline-offset:2px}
.rate textarea{font:inherit;color:inherit;background:var(--bg);border:1px solid var(--line);border-radius:10px;padding:8px;resize:vertical}
.rate button{align-self:flex-end;border:0;border-radius:22px;min-height:44px;padding:0 18px;background:var(--accent);color:var(--on-accent);cursor:pointer;font-weight:600}.rate button:disabled{opacity:.55;cursor:default}
.rated{margin:0}.rated:empty{display:none}
.typing{align-self:flex-start;background:var(--bot);padding:10px 12px;border-radius:14px;display:flex;gap:4px}
.typing i{width:7px;height:7px;border-radius:50%;background:var(--muted);animation:b 1s infinite ease-in-out}
.typing i:nth-child(2){animation-delay:.15s}.typing i:nth-child(3){animation-delay:.3s}
@keyframes b{0%,80%,100%{opacity:.3;transform:translateY(0)}40%{opacity:1;transform:translateY(-3px)}}
@media (prefers-reduced-motion:reduce){.typing i{animation:none}}
.quick{display:flex;flex-wrap:wrap;gap:6px;padding:0 14px 8px}
.quick button{border:1px solid var(--accent);background:var(--bg);color:var(--fg);border-radius:18px;padding:5px 12px;min-height:36px;cursor:pointer}
.form{display:flex;gap:8px;padding:10px;border-top:1px solid var(--line)}
.form input{flex:1;min-width:0;min-height:44px;font-size:16px;padding:9px 14px;border:1px solid var(--line);border-radius:20px;background:var(--bg)}
.form button{border:0;border-radius:22px;min-height:44px;padding:0 18px;background:var(--accent);color:var(--on-accent);cursor:pointer;font-weight:600}
.form button:disabled,.form input:disabled{opacity:.55;cursor:default}
@media (max-width:640px){.panel,.left .panel{inset:0;width:100%;height:100%;max-height:none;border-radius:0;border:0}
.head{padding:calc(8px + env(safe-area-inset-top,0px)) calc(14px + env(safe-area-inset-right,0px)) 8px calc(14px + env(safe-area-inset-left,0px))}
.log{padding-left:calc(14px + env(safe-area-inset-left,0px));padding-right:calc(14px + env(safe-area-inset-right,0px))}
.form{padding:10px calc(10px + env(safe-area-inset-right,0px)) calc(10px + env(safe-area-inset-bottom,0px)) calc(10px + env(safe-area-inset-left,0px))}
.quick button,.retry{min-height:44px}}
`;

/** One stylesheet for the widget, with the host's accent colour (already validated) and the text colour chosen for it. */
export function createStyleSheet(accent: string | null, onAccent: string): CSSStyleSheet {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS_TEXT);
  if (accent) sheet.insertRule(`.w{--accent:${accent};--on-accent:${onAccent}}`, sheet.cssRules.length);
  return sheet;
}
