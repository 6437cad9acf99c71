/**
 * What npm run generate adds to the Redoc pages of generated/docs/: the theme colors that
 * make them readable (axe-core finds no serious or critical violation: test/browser/docs.test.ts),
 * and the landing page that lists the four surfaces. The sandbox serves both at /docs
 * (getDocumentation, getDocumentationPage); they open offline from generated/docs/ too.
 */
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Redoc 3 draws with CSS variables; these replace the ones whose text falls below WCAG AA's
 * 4.5:1 on its light background: the method badges (`get` green, `put` orange, `patch`
 * yellow, a webhook's `receive`), a deprecated operation's grey and its orange badge, links,
 * the code samples' tokens; in both palettes the search box's "Loading…" and deprecated
 * operations in the menu, and in the dark one a nested schema's property names.
 * `:root:not(.dark)` and `:root:root` outrank Redoc's own `:root …` rules, wherever they are
 * inserted.
 */
const redocTheme = [
  ':root:not(.dark) .tag-get,:root:not(.dark) .tag-query{--tag-color:#137a3f}',
  ':root:not(.dark) .tag-post{--tag-color:#1a56d6}',
  ':root:not(.dark) .tag-put{--tag-color:#9a4d10}',
  ':root:not(.dark) .tag-patch{--tag-color:#7a5a00}',
  ':root:not(.dark) .tag-delete{--tag-color:#c8102e}',
  ':root:not(.dark) .tag-receive,:root:not(.dark) .tag-sub,:root:not(.dark) .tag-cons{--tag-color:#276a2a}',
  ':root:not(.dark){--link-color-primary-legacy:var(--color-blue-8);--color-warning-base:#9a4d10}',
  ':root:not(.dark){--code-block-tokens-string-color:#2558b8;--code-block-tokens-property-string-color:#2558b8;--code-block-tokens-link-color:#2558b8;' +
    '--code-block-tokens-operator-color:#9a4d10;--code-block-tokens-function-color:#9a4d10;--code-block-tokens-class-name-color:#9a4d10;--code-block-tokens-regex-color:#9a4d10;' +
    '--code-block-tokens-invalid-color:#9a4d10;--code-block-tokens-boolean-color:#137a3f;--code-block-tokens-keyword-color:#9b1c5a;--code-block-tokens-deleted-color:#c8102e}',
  ':root:root{--input-content-placeholder-color:var(--color-warm-grey-7);--text-color-disabled:var(--color-warm-grey-7)}',
  ':root.dark:root{--text-color-disabled:var(--color-warm-grey-8)}',
  // A nested schema's property names are a fixed purple, too dark on the dark background.
  ':root.dark .schema-property-item .schema-property-item .schema-name{color:var(--color-purple-7)}',
].join('\n');

/**
 * Redoc's selectors (an operation's examples, a schema's variants) name their button
 * `Example` or `Variant` while it shows the option chosen, which WCAG 2.5.3 (label in name,
 * axe's label-content-name-mismatch) refuses: the name becomes `Example: <the option>`. The
 * text is the inlined Redoc build's; a Redoc upgrade that changes it fails the generation
 * here rather than the accessibility test later.
 */
const selectorName = {
  from: '"aria-label":r,children:(0,V.jsx)(cI,{children:i?.labelNode??i?.label})',
  to: '"aria-label":r&&typeof i?.label==`string`?`${r}: ${i.label}`:r,children:(0,V.jsx)(cI,{children:i?.labelNode??i?.label})',
};

/** A Redoc page as generate writes it: the theme above, and the selectors' names. */
export function accessibleRedocPage(html: string): string {
  if (!html.includes(selectorName.from)) throw new Error("the Redoc build changed: scripts/docs-pages.ts's selectorName no longer matches it");
  return html.replace('</head>', `<style>${redocTheme}</style>\n</head>`).replace(selectorName.from, selectorName.to);
}

interface SurfacePage {
  surface: string;
  document: { info: { title: string; description?: string }; paths?: Record<string, object>; webhooks?: Record<string, object> };
}

const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
const operationCount = (items: Record<string, object> = {}) => Object.values(items).reduce((n, item) => n + Object.keys(item).filter((k) => methods.has(k)).length, 0);

/** A description's first paragraph (with the list it introduces, when it ends with a colon), without Markdown's marks. */
function firstParagraph(text = '') {
  const [first = '', next = ''] = text.trim().split(/\n\s*\n/);
  const lead = first.trimEnd().endsWith(':') ? `${first} ${next.replace(/^\s*- /gm, '• ')}` : first;
  return lead.replace(/\s+/g, ' ').replace(/[`*_]/g, '');
}

const style = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1d2433;background:#f6f7f9}
header,main,footer{max-width:52rem;margin:0 auto;padding:1rem 1.5rem}
h1{font-size:1.8rem;margin:1rem 0 .25rem}h2{font-size:1.2rem;margin:0 0 .25rem}
ul{list-style:none;padding:0;display:grid;gap:1rem}
li{background:#fff;border-radius:10px;padding:1rem 1.25rem;box-shadow:0 1px 3px #0002}
a{color:#1a4fb8}p{margin:.25rem 0}.meta{color:#4a5263;font-size:.9rem}
code{background:#eef0f4;padding:0 .3em;border-radius:4px}`;

/**
 * The landing page: each surface with its title, its description's first paragraph and its
 * number of operations, linked as the file beside it (`./v2.html`), so the page opens
 * offline; the sandbox serves those links as `/docs/v2`.
 */
export function indexPage(pages: SurfacePage[], doNotEdit: string) {
  const items = pages
    .map(({ surface, document }) => {
      const operations = operationCount(document.paths);
      const webhooks = operationCount(document.webhooks);
      const counts = `${operations} operation${operations === 1 ? '' : 's'}${webhooks > 0 ? `, ${webhooks} webhook${webhooks === 1 ? '' : 's'}` : ''}`;
      return `      <li>
        <h2><a href="./${surface}.html">${escapeHtml(document.info.title)}</a></h2>
        <p>${escapeHtml(firstParagraph(document.info.description))}</p>
        <p class="meta">${counts}</p>
      </li>`;
    })
    .join('\n');
  return `<!doctype html>
<!-- ${doNotEdit} -->
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ramp API reference</title>
<style>${style}</style>
</head>
<body>
<header>
  <h1>Ramp API reference</h1>
  <p>The service's four surfaces, each documented on its own page: every operation with its parameters, responses, examples and code samples.</p>
</header>
<main>
  <ul>
${items}
  </ul>
</main>
<footer>
  <p class="meta">The sandbox (<code>npm start</code>) serves these pages at <code>/docs</code>, and its console at <code>/sandbox/console</code>.</p>
</footer>
</body>
</html>
`;
}
