/**
 * What npm run generate adds to the Redoc pages of generated/docs/: the theme colors that
 * make them readable (axe-core finds no serious or critical violation: test/browser/docs.test.ts),
 * and the landing page: the four surfaces, one search over all their operations and
 * webhooks, the workflows (scripts/docs-workflows.ts) and the guides (scripts/docs-webhooks.ts).
 * The sandbox serves them at /docs (getDocumentation, getDocumentationPage,
 * getDocumentationWorkflow); they open offline from generated/docs/ too, their links written
 * as the files beside them (`./v2.html`), which the sandbox serves as `/docs/v2`.
 */
import { documentedOperations, escapeHtml, htmlPage, operationCount, type SurfacePage } from './docs-html.ts';
import { workflowSummaries } from './docs-workflows.ts';

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


/** A description's first paragraph (with the list it introduces, when it ends with a colon), without Markdown's marks. */
function firstParagraph(text = '') {
  const [first = '', next = ''] = text.trim().split(/\n\s*\n/);
  const lead = first.trimEnd().endsWith(':') ? `${first} ${next.replace(/^\s*- /gm, '• ')}` : first;
  return lead.replace(/\s+/g, ' ').replace(/[`*_]/g, '');
}

/**
 * The pages beside the references and the workflows, each a file of generated/docs/ that the
 * sandbox serves as `/docs/<page>` (getDocumentationPage).
 */
const guides = [
  {
    page: 'quickstart',
    title: 'Quickstart: your first hour with the sandbox',
    text: 'From a key to a completed onramp and its signed webhook: create a customer (with v1), approve its KYC, register a payment account, quote, order, deposit; every request in TypeScript, curl, Python, Go and Java.',
  },
  {
    page: 'webhooks',
    title: 'Verify a webhook delivery',
    text: "The X-Signature rule, and the code that checks it in TypeScript, Python, Go and Java, each with the RFC 8785 library chosen for its ecosystem and why.",
  },
];

/**
 * The search: the index of every operation and webhook of the four surfaces, inline as JSON,
 * and a script that filters it as the reader types (every word must match the operationId,
 * method, path, summary, surface or a tag). A result links to the operation on its surface's
 * page: the surface's link on this page (`./v2.html` offline, `/docs/v2` served) and Redoc's
 * route. Both scripts are inline, admitted by their hashes (server/features/docs/pages.ts).
 */
const searchScript = `const index = JSON.parse(document.getElementById('search-index').textContent);
const input = document.getElementById('search');
const results = document.getElementById('search-results');
const status = document.getElementById('search-status');
const pageOf = (surface) => document.querySelector('a[data-surface="' + surface + '"]').getAttribute('href');
for (const entry of index) entry.text = [entry.operationId, entry.method, entry.path, entry.summary, entry.surface, ...entry.tags].join(' ').toLowerCase();
const shown = 50;
function result(entry) {
  const item = document.createElement('li');
  const link = document.createElement('a');
  link.href = pageOf(entry.surface) + entry.anchor;
  link.textContent = entry.summary || entry.operationId;
  const method = document.createElement('span');
  method.className = 'method';
  method.textContent = entry.webhook ? 'webhook' : entry.method;
  const about = document.createElement('p');
  about.className = 'meta';
  const name = document.createElement('code');
  name.textContent = entry.operationId;
  about.append(method, entry.path + ' · ', name, ' · ' + entry.title + ' · ' + entry.tags.join(', '));
  item.append(link, about);
  return item;
}
function search() {
  const words = input.value.toLowerCase().split(/\\s+/).filter(Boolean);
  const found = words.length === 0 ? [] : index.filter((entry) => words.every((word) => entry.text.includes(word)));
  found.sort((a, b) => Number(words.some((w) => b.operationId.toLowerCase().includes(w))) - Number(words.some((w) => a.operationId.toLowerCase().includes(w))));
  results.replaceChildren(...found.slice(0, shown).map(result));
  status.textContent = words.length === 0 ? '' : found.length === 0 ? 'Nothing matches.' : found.length + (found.length === 1 ? ' match' : ' matches') + (found.length > shown ? ', the first ' + shown + ' shown.' : '.');
}
input.addEventListener('input', search);
search();`;

const landingStyle = `.search{background:#fff;border-radius:10px;padding:1rem 1.25rem;box-shadow:0 1px 3px #0002}
.search label{font-weight:600;display:block;margin-bottom:.25rem}
.search input{font:inherit;width:100%;box-sizing:border-box;padding:.5rem .75rem;border:2px solid #5b6477;border-radius:6px}
.search input:focus{outline:3px solid #1a4fb8;outline-offset:1px}
#search-results{list-style:none;padding:0;margin:.5rem 0 0}#search-results li{padding:.5rem 0;border-bottom:1px solid #e2e5ea}
.workflows ul{padding-left:1.2rem}`;

function searchIndex(pages: SurfacePage[]) {
  const titles = new Map(pages.map(({ surface, document }) => [surface, document.info.title]));
  // Summaries as plain text: the script writes them with textContent (`order_updated` loses its code marks).
  const entries = documentedOperations(pages).map(({ surface, operationId, method, path, summary, tags, webhook, anchor }) => ({ surface, title: titles.get(surface), operationId, method, path, summary: summary.replace(/`/g, ''), tags, webhook, anchor }));
  // As JSON inside a script element: no `<` may close it early.
  return JSON.stringify(entries).replace(/</g, '\\u003c');
}

function surfaceCards(pages: SurfacePage[]) {
  return pages
    .map(({ surface, document }) => {
      const operations = operationCount(document.paths);
      const webhooks = operationCount(document.webhooks);
      const counts = `${operations} operation${operations === 1 ? '' : 's'}${webhooks > 0 ? `, ${webhooks} webhook${webhooks === 1 ? '' : 's'}` : ''}`;
      return `      <li>
        <h3><a href="./${surface}.html" data-surface="${surface}">${escapeHtml(document.info.title)}</a></h3>
        <p>${escapeHtml(firstParagraph(document.info.description))}</p>
        <p class="meta">${counts}</p>
      </li>`;
    })
    .join('\n');
}

function workflowList() {
  return workflowSummaries()
    .map(
      ({ file, title, workflows }) => `      <li>
        <h3>${escapeHtml(title)}</h3>
        <p class="meta"><code>openapi/workflows/${escapeHtml(file)}</code></p>
        <ul>${workflows.map(({ id, summary }) => `<li><a href="./workflows/${escapeHtml(id)}.html">${escapeHtml(summary)}</a> <span class="meta">(<code>${escapeHtml(id)}</code>)</span></li>`).join('')}</ul>
      </li>`,
    )
    .join('\n');
}

/**
 * The landing page: one search over the four surfaces, each surface with its title, its
 * description's first paragraph and its number of operations, the guides and the workflows.
 */
export function indexPage(pages: SurfacePage[], doNotEdit: string) {
  const guideItems = guides.map(({ page, title, text }) => `      <li><h3><a href="./${page}.html">${escapeHtml(title)}</a></h3><p>${escapeHtml(text)}</p></li>`).join('\n');
  const body = `<header>
  <h1>Ramp API reference</h1>
  <p>The service's four surfaces, each documented on its own page: every operation with its parameters, responses, examples and code samples; the flows they make, step by step; and how to verify a webhook.</p>
</header>
<main>
  <section class="search" role="search" aria-labelledby="search-heading">
    <h2 id="search-heading">Search every operation and webhook</h2>
    <label for="search">Operation, path, summary or tag, in any of the four surfaces</label>
    <input id="search" type="search" autocomplete="off" spellcheck="false" placeholder="for example: order, kyc, POST quote">
    <p id="search-status" class="meta" role="status" aria-live="polite"></p>
    <ul id="search-results"></ul>
  </section>
  <section aria-labelledby="surfaces">
    <h2 id="surfaces">The surfaces</h2>
    <ul class="cards">
${surfaceCards(pages)}
    </ul>
  </section>
  <section aria-labelledby="guides">
    <h2 id="guides">Guides</h2>
    <ul class="cards">
${guideItems}
    </ul>
  </section>
  <section class="workflows" aria-labelledby="workflows">
    <h2 id="workflows">The flows, step by step</h2>
    <p>Each flow is an Arazzo workflow that runs against a fresh sandbox in CI; its page lists its steps, each linked to its operation.</p>
    <ul class="cards">
${workflowList()}
    </ul>
  </section>
</main>
<footer>
  <p class="meta">The sandbox (<code>npm start</code>) serves these pages at <code>/docs</code>, and its console at <code>/sandbox/console</code>.</p>
</footer>
<script type="application/json" id="search-index">${searchIndex(pages)}</script>
<script>${searchScript}</script>`;
  return htmlPage({ title: 'Ramp API reference', body, doNotEdit, style: landingStyle });
}
