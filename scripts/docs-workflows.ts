/**
 * A page per Arazzo workflow of openapi/workflows/ (npm run generate writes
 * generated/docs/workflows/<workflowId>.html; the sandbox serves it at
 * /docs/workflows/<workflowId>, getDocumentationWorkflow): its summary and description, its
 * inputs, and its steps in order, each linked to its operation on its surface's Redoc page
 * (the surface is the step's source description: `../v2.yaml` is v2) or to the workflow it
 * runs, with the request it sends, its success criteria and its outputs. The workflows are
 * what `redocly respect` runs against the sandbox in CI, so the page shows a flow that works.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { documentedOperations, escapeHtml, htmlPage, inlineMarkdown, markdownBlocks, type DocumentedOperation, type SurfacePage } from './docs-html.ts';

const workflowsDir = resolve(import.meta.dirname, '..', 'openapi', 'workflows');

type Json = Record<string, any>;

interface ArazzoFile {
  file: string;
  document: Json;
}

/** The Arazzo files, in name order, parsed. */
function arazzoFiles(dir = workflowsDir): ArazzoFile[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.arazzo.yaml'))
    .sort()
    .map((file) => ({ file, document: parse(readFileSync(join(dir, file), 'utf8')) }));
}

/** What the landing page lists: each file's title, and its workflows' ids and summaries. */
export function workflowSummaries(dir = workflowsDir) {
  return arazzoFiles(dir).map(({ file, document }) => ({
    file,
    title: document.info.title as string,
    workflows: (document.workflows as Json[]).map((workflow) => ({ id: workflow.workflowId as string, summary: (workflow.summary ?? workflow.workflowId) as string })),
  }));
}

/** A `#/components/…` reference of the file, resolved; anything else as it is. */
function resolveLocal(document: Json, value: Json | undefined): Json | undefined {
  const ref = value?.$ref as string | undefined;
  if (!ref?.startsWith('#/')) return value;
  return ref
    .slice(2)
    .split('/')
    .reduce<Json | undefined>((node, key) => node?.[key], document);
}

/** Where a step goes: an operation of a surface, or a workflow (of this file or another). */
type Target = { operation: DocumentedOperation } | { workflowId: string };

function stepTarget(document: Json, step: Json, operations: Map<string, DocumentedOperation>, where: string): Target {
  const sources = new Map<string, Json>((document.sourceDescriptions as Json[]).map((source) => [source.name, source]));
  const [, sourceName, name] = /^\$sourceDescriptions\.([^.]+)\.(.+)$/.exec(step.operationId ?? step.workflowId ?? '') ?? [undefined, undefined, step.operationId ?? step.workflowId];
  if (step.workflowId) return { workflowId: name };
  const operation = operations.get(name);
  const source = sourceName ? sources.get(sourceName) : [...sources.values()].find((s) => s.type === 'openapi');
  const surface = source ? basename(source.url, '.yaml') : undefined;
  if (!step.operationId || !operation || operation.surface !== surface) {
    throw new Error(`${where}: step ${step.stepId} names ${step.operationId ?? step.operationPath}, which is no operation of ${surface ?? 'its source'}`);
  }
  return { operation };
}

const code = (value: unknown) => `<code>${escapeHtml(String(value))}</code>`;

function criterion(c: Json) {
  const type = typeof c.type === 'object' ? c.type.type : c.type;
  return `<li>${code(c.condition)}${c.context ? ` on ${code(c.context)}` : ''}${type ? ` (${escapeHtml(type)})` : ''}</li>`;
}

function outputsList(outputs: Json | undefined) {
  const entries = Object.entries(outputs ?? {});
  if (entries.length === 0) return '';
  return `<ul>${entries.map(([name, value]) => `<li>${code(name)}: ${code(value)}</li>`).join('')}</ul>`;
}

function requestDetails(document: Json, step: Json) {
  const parameters = ((step.parameters ?? []) as Json[]).map((p) => resolveLocal(document, p.reference ? { $ref: `#/${p.reference.slice(1).replace(/\./g, '/')}` } : p) ?? p);
  const rows = parameters.map((p) => `<tr><td>${code(p.name)}</td><td>${escapeHtml(p.in ?? 'workflow input')}</td><td>${code(p.value)}</td></tr>`).join('');
  const table = rows ? `<table><thead><tr><th scope="col">parameter</th><th scope="col">in</th><th scope="col">value</th></tr></thead><tbody>${rows}</tbody></table>` : '';
  const body = step.requestBody ? `<p>Body (${code(step.requestBody.contentType ?? 'application/json')}):</p><pre tabindex="0"><code>${escapeHtml(JSON.stringify(step.requestBody.payload, null, 2))}</code></pre>` : '';
  return table || body ? `<details><summary>The request</summary>${table}${body}</details>` : '';
}

function stepItem(document: Json, step: Json, target: Target) {
  const heading = `<h3 id="step-${escapeHtml(step.stepId)}">${escapeHtml(step.stepId)}</h3>`;
  const call =
    'operation' in target
      ? `<p><span class="method">${escapeHtml(target.operation.method)}</span><a href="../${target.operation.surface}.html${target.operation.anchor}">${escapeHtml(target.operation.path)}</a> · ${inlineMarkdown(target.operation.summary)} <span class="meta">(${code(target.operation.operationId)}, ${escapeHtml(target.operation.surface)})</span></p>`
      : `<p><span class="method">workflow</span><a href="./${escapeHtml(target.workflowId)}.html">${escapeHtml(target.workflowId)}</a>: runs that workflow first</p>`;
  const criteria = (step.successCriteria ?? []) as Json[];
  return `      <li class="card">
        ${heading}
        ${call}
        ${markdownBlocks(step.description)}
        ${requestDetails(document, step)}
        ${criteria.length > 0 ? `<h4>Success criteria</h4><ul>${criteria.map(criterion).join('')}</ul>` : ''}
        ${step.outputs ? `<h4>Outputs</h4>${outputsList(step.outputs)}` : ''}
      </li>`;
}

function inputsTable(schema: Json | undefined) {
  const properties = Object.entries<Json>(schema?.properties ?? {});
  if (properties.length === 0) return '<p>None.</p>';
  const required = new Set<string>(schema?.required ?? []);
  const rows = properties.map(([name, p]) => `<tr><td>${code(name)}</td><td>${escapeHtml(p.type ?? '')}</td><td>${required.has(name) ? 'yes' : 'no'}</td><td>${inlineMarkdown(p.description ?? '')}</td></tr>`);
  return `<table><thead><tr><th scope="col">input</th><th scope="col">type</th><th scope="col">required</th><th scope="col">what it is</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function workflowPage({ file, document }: ArazzoFile, workflow: Json, operations: Map<string, DocumentedOperation>, doNotEdit: string) {
  const steps = (workflow.steps as Json[]).map((step) => stepItem(document, step, stepTarget(document, step, operations, `${file} ${workflow.workflowId}`)));
  const summary = (workflow.summary ?? workflow.workflowId) as string;
  const body = `<header>
  <nav class="crumbs" aria-label="Breadcrumb"><a href="../index.html">Ramp API reference</a> › Workflows</nav>
  <h1>${escapeHtml(summary)}</h1>
  <p class="meta">Workflow ${code(workflow.workflowId)} of ${code(`openapi/workflows/${file}`)} (${escapeHtml(document.info.title)}), an Arazzo 1.0.1 workflow that <code>redocly respect</code> runs against a fresh sandbox in CI.</p>
</header>
<main>
  <section aria-labelledby="about">
    <h2 id="about">What it does</h2>
    ${markdownBlocks(workflow.description)}
  </section>
  <section aria-labelledby="inputs">
    <h2 id="inputs">Inputs</h2>
    ${inputsTable(resolveLocal(document, workflow.inputs))}
  </section>
  <section aria-labelledby="steps">
    <h2 id="steps">Steps</h2>
    <ol class="steps">
${steps.join('\n')}
    </ol>
  </section>
${workflow.outputs ? `  <section aria-labelledby="outputs"><h2 id="outputs">Outputs</h2>${outputsList(workflow.outputs)}</section>\n` : ''}  <section aria-labelledby="file">
    <h2 id="file">The file's flows</h2>
    ${markdownBlocks(document.info.description)}
  </section>
</main>`;
  return htmlPage({ title: `${summary} (workflow ${workflow.workflowId})`, body, doNotEdit, style: 'ol.steps{padding-left:1.5rem;display:grid;gap:1rem}details{margin:.5rem 0}summary{cursor:pointer}' });
}

/**
 * Writes every workflow's page into `<docs>/workflows/`. The contract's `/docs/workflows/{workflow}`
 * lists the pages it serves; a workflow added or renamed without it fails here, not in a reader's browser.
 */
export function writeWorkflowPages(docs: string, pages: SurfacePage[], doNotEdit: (source: string) => string, dir = workflowsDir) {
  const operations = new Map(documentedOperations(pages).map((operation) => [operation.operationId, operation]));
  const files = arazzoFiles(dir);
  const ids = files.flatMap(({ document }) => (document.workflows as Json[]).map((workflow) => workflow.workflowId as string));
  const v2 = pages.find(({ surface }) => surface === 'v2')?.document as Json | undefined;
  const served = (v2?.paths?.['/docs/workflows/{workflow}']?.parameters as Json[] | undefined)?.find((p) => p.name === 'workflow')?.schema?.enum as string[] | undefined;
  if (!served || [...served].sort().join() !== [...ids].sort().join()) {
    throw new Error(`openapi/paths/v2/docs_workflows_{workflow}.yaml lists [${served?.join(', ')}] but openapi/workflows/ has [${ids.join(', ')}]: make its enum the workflows' ids`);
  }
  mkdirSync(join(docs, 'workflows'), { recursive: true });
  for (const entry of files) {
    for (const workflow of entry.document.workflows as Json[]) {
      writeFileSync(join(docs, 'workflows', `${workflow.workflowId}.html`), workflowPage(entry, workflow, operations, doNotEdit(`openapi/workflows/${entry.file}`)));
    }
  }
}
