/**
 * What the documentation pages npm run generate writes beside the Redoc ones share
 * (scripts/docs-pages.ts, docs-workflows.ts, docs-webhooks.ts): the page's frame and style,
 * the Markdown of the contract's descriptions as HTML, and each operation's place on its
 * surface's Redoc page. No page has a script unless it says so, and none loads anything.
 */
import MarkdownIt from 'markdown-it';

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// A type, not an interface: npm run docs passes its preview's documents (Record<string, unknown>) as one.
export type SurfaceDocument = {
  info: { title: string; description?: string };
  paths?: Record<string, object>;
  webhooks?: Record<string, object>;
};

export interface SurfacePage {
  surface: string;
  document: SurfaceDocument;
}

const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

/** An operation or a webhook of a surface, with where Redoc shows it. */
export interface DocumentedOperation {
  surface: string;
  operationId: string;
  /** `get`, `post`, …; a webhook's is the method it is delivered with. */
  method: string;
  /** The path, or the webhook's name. */
  path: string;
  summary: string;
  tags: string[];
  webhook: boolean;
  /** Its route on the surface's Redoc page: `#/<tag>/<operationid>`. */
  anchor: string;
}

/**
 * Redoc 3 routes an operation (and a webhook) as `#/<its first tag, lower case, its spaces
 * made dashes>/<operationId in lower case>`, and scrolls to it when the page opens on that
 * hash (test/browser/docs.test.ts follows such links).
 */
export function redocAnchor(tag: string, operationId: string) {
  return `#/${tag.toLowerCase().replace(/[^a-z0-9]+/g, '-')}/${operationId.toLowerCase()}`;
}

/** Every operation of the surfaces, then every webhook, in the documents' order. */
export function documentedOperations(pages: SurfacePage[]): DocumentedOperation[] {
  return pages.flatMap(({ surface, document }) =>
    (['paths', 'webhooks'] as const).flatMap((section) =>
      Object.entries(document[section] ?? {}).flatMap(([path, item]) =>
        Object.entries(item as Record<string, unknown>)
          .filter(([method]) => methods.has(method))
          .map(([method, value]) => {
            const operation = value as { operationId: string; summary?: string; tags?: string[] };
            const tags = operation.tags ?? [];
            if (!tags[0]) throw new Error(`${surface} ${method} ${path} has no tag: Redoc would give it no route to link`);
            return { surface, operationId: operation.operationId, method, path, summary: operation.summary ?? '', tags, webhook: section === 'webhooks', anchor: redocAnchor(tags[0], operation.operationId) };
          }),
      ),
    ),
  );
}

/** The count of operations in a document's paths or webhooks. */
export const operationCount = (items: Record<string, object> = {}) => Object.values(items).reduce((n, item) => n + Object.keys(item).filter((k) => methods.has(k)).length, 0);

/**
 * The contract's descriptions and the docs' prose are CommonMark, rendered by markdown-it as
 * Redoc renders them (raw HTML in them is shown as text). A link stays a link when it leaves
 * for the web; one to a file of the repository, which the pages do not carry, keeps its text
 * only.
 */
const markdown = new MarkdownIt({ html: false });
markdown.core.ruler.push('repository-links', (state) => {
  for (const block of state.tokens) {
    if (!block.children) continue;
    let dropping = false;
    block.children = block.children.filter((token) => {
      if (token.type === 'link_open') dropping = !/^https:\/\//.test(token.attrGet('href') ?? '');
      else if (token.type === 'link_close') {
        const dropped = dropping;
        dropping = false;
        return !dropped;
      } else return true;
      return !dropping;
    });
  }
});

/** A phrase of Markdown (a summary, a table cell) as inline HTML. */
export const inlineMarkdown = (text: string): string => markdown.renderInline(text);

/** A description's Markdown (paragraphs, lists, tables) as HTML. */
export const markdownBlocks = (text = ''): string => markdown.render(text);

/** Colors at WCAG AA or better on their backgrounds. */
export const pageStyle = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1d2433;background:#f6f7f9}
header,main,footer{max-width:52rem;margin:0 auto;padding:1rem 1.5rem}
h1{font-size:1.8rem;margin:1rem 0 .25rem}h2{font-size:1.3rem;margin:1.5rem 0 .5rem}h3{font-size:1.1rem;margin:0 0 .25rem}h4{font-size:1rem;margin:.75rem 0 .25rem}
ul.cards{list-style:none;padding:0;display:grid;gap:1rem}
.cards>li,.card{background:#fff;border-radius:10px;padding:1rem 1.25rem;box-shadow:0 1px 3px #0002}
a{color:#1a4fb8}p{margin:.25rem 0}.meta{color:#4a5263;font-size:.9rem}
code{background:#eef0f4;padding:0 .3em;border-radius:4px}
pre{background:#1d2433;color:#f4f5f7;padding:1rem;border-radius:8px;overflow:auto;font-size:.85rem;line-height:1.45}
pre code{background:none;padding:0}
table{border-collapse:collapse;width:100%;background:#fff}th,td{text-align:left;padding:.35rem .6rem;border-bottom:1px solid #d5d9e0;vertical-align:top}
.method{display:inline-block;min-width:4.2rem;font:600 .75rem/1.6 ui-monospace,monospace;text-transform:uppercase;color:#fff;background:#3d4556;border-radius:4px;text-align:center;margin-right:.4rem}
nav.crumbs{font-size:.9rem}`;

/** A whole page: the do-not-edit line, its title, the shared style (and its own), its body. */
export function htmlPage({ title, body, doNotEdit, style = '' }: { title: string; body: string; doNotEdit: string; style?: string }) {
  return `<!doctype html>
<!-- ${doNotEdit} -->
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${pageStyle}${style}</style>
</head>
<body>
${body}
</body>
</html>
`;
}
