/** The /docs page: a static shell around docs-page-script.ts, which renders /openapi.json. */
import { createHash } from 'node:crypto';
import { DOCS_SCRIPT } from './docs-page-script';

const STYLE = `
:root { color-scheme: light dark; --fg: #1d2330; --muted: #5d6679; --line: #e4e7ec; --field: #7d8696; --bg: #fff; --accent: #3b5bdb; --on-accent: #fff; --req: #b93c06; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e8ee; --muted: #a3adbd; --line: #2b3140; --field: #7d8696; --bg: #11141b; --accent: #91a7ff; --on-accent: #11141b; --req: #ff9b5c; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header { padding: 16px 20px; border-bottom: 1px solid var(--line); display: flex; flex-wrap: wrap; gap: 12px; align-items: center; }
header h1 { font-size: 18px; margin: 0; flex: 1 1 auto; }
header input { font: inherit; padding: 6px 8px; min-width: 0; width: 22em; max-width: 100%; border: 1px solid var(--field); border-radius: 6px; background: transparent; color: inherit; }
.layout { display: grid; grid-template-columns: 260px 1fr; }
nav { border-right: 1px solid var(--line); padding: 12px; position: sticky; top: 0; align-self: start; max-height: 100vh; overflow: auto; }
nav a { display: block; padding: 4px 6px; color: inherit; text-decoration: none; font-size: 13px; border-radius: 4px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
nav a:hover { background: var(--line); }
main { padding: 0 20px 40px; min-width: 0; }
section { border-bottom: 1px solid var(--line); padding: 16px 0; }
h2 { font-size: 17px; } h3 { font-size: 14px; margin: 14px 0 6px; color: var(--muted); }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
td { border-top: 1px solid var(--line); padding: 4px 6px; vertical-align: top; }
td:first-child { white-space: nowrap; width: 1%; }
code { font: 13px ui-monospace, monospace; overflow-wrap: anywhere; }
details > summary { cursor: pointer; color: var(--accent); }
details details { margin-left: 8px; }
.desc { color: var(--muted); font-size: 13px; }
.req { color: var(--req); font-size: 11px; }
.m { font: 700 11px ui-monospace, monospace; padding: 2px 5px; border-radius: 4px; color: #fff; background: #2b7a3b; }
.m.post { background: #1864ab; }
.m.delete { background: #e03131; }
.try textarea, .try input { width: 100%; font: 13px ui-monospace, monospace; margin: 8px 0; background: transparent; color: inherit; border: 1px solid var(--field); border-radius: 6px; }
.try input { display: block; padding: 6px 8px; }
.try button { font: inherit; padding: 6px 14px; border: 0; border-radius: 6px; background: var(--accent); color: var(--on-accent); cursor: pointer; }
.media img, .media audio, .media video { max-width: 100%; margin-top: 8px; }
details { max-width: 100%; overflow-x: auto; }
.out { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 12px; max-height: 400px; overflow: auto; }
@media (max-width: 720px) {
  .layout { grid-template-columns: 1fr; } nav { position: static; max-height: none; border-right: 0; border-bottom: 1px solid var(--line); }
  /* A field's name above its type: nested schemas' columns would add up past a phone's width. */
  main table, main tbody, main tr, main td, main td:first-child { display: block; width: auto; } main td:first-child { white-space: normal; }
  main td + td { border-top: 0; padding-left: 12px; } details details { margin-left: 4px; }
}
`;

export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Unigate API reference</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1 id="title">Unigate API</h1><input id="key" type="password" placeholder="API key (sk-…) for Try it" aria-label="API key for Try it" autocomplete="off"><a href="/openapi.json">openapi.json</a></header>
<div class="layout"><nav></nav><main><p id="intro" class="desc"></p><div id="ops"></div></main></div>
<script>${DOCS_SCRIPT}</script>
</body>
</html>`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** Only this page's own script and style run; it talks to its own origin only. */
export const DOCS_CSP = [
  "default-src 'none'",
  `script-src ${sha256(DOCS_SCRIPT)}`,
  `style-src ${sha256(STYLE)}`,
  "connect-src 'self'",
  // A Try it answer that is audio or an image is played or shown from the blob it arrived as.
  'img-src blob:',
  'media-src blob:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
