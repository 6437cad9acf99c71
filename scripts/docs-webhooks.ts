/**
 * The webhook verification recipes as a documentation page (generated/docs/webhooks.html,
 * served at /docs/webhooks): the rule and the recipes' table and reasons as docs/webhooks.md
 * writes them, and each language's code as the repository has it (client/webhooks.ts,
 * samples/webhooks/<language>/), read when the page is generated, so the page shows the code
 * the vectors and the live deliveries test (test/samples/webhooks.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { escapeHtml, htmlPage, inlineMarkdown, markdownBlocks } from './docs-html.ts';

const root = resolve(import.meta.dirname, '..');

/** Each language's recipe: its name in docs/webhooks.md, its verify function and its dependency, then where its receiver is. */
const recipes = [
  { language: 'TypeScript', files: ['client/webhooks.ts'], receiver: 'client/README.md (Webhooks)' },
  { language: 'Python', files: ['samples/webhooks/python/verify_webhook.py', 'samples/webhooks/python/requirements.txt'], receiver: 'samples/webhooks/python/receiver.py' },
  { language: 'Go', files: ['samples/webhooks/go/webhook.go', 'samples/webhooks/go/go.mod'], receiver: 'samples/webhooks/go/cmd/receiver/main.go' },
  { language: 'Java', files: ['samples/webhooks/java/src/main/java/com/example/ramp/WebhookVerifier.java', 'samples/webhooks/java/pom.xml'], receiver: 'samples/webhooks/java/src/main/java/com/example/ramp/Receiver.java' },
];

/**
 * What each webhook of the reference shows as its `x-codeSamples` (code-samples.ts): the
 * verify function of each language's recipe, as the repository has it, so a partner reading a
 * webhook sees how to check its signature in their language.
 */
export function verificationSamples(base = root): { lang: string; label: string; source: string }[] {
  return recipes.map(({ language, files }) => ({ lang: language, label: `${language}: verify the signature (${files[0]})`, source: readFileSync(join(base, files[0]!), 'utf8') }));
}

/** docs/webhooks.md cut at its `## ` headings: the text before the first, then each section by its title. */
function sections(markdown: string) {
  const [lead = '', ...rest] = markdown.split(/^## /m);
  return { lead: lead.replace(/^# .*\n/, ''), ...Object.fromEntries(rest.map((section) => [section.slice(0, section.indexOf('\n')).trim(), section.slice(section.indexOf('\n') + 1)])) } as Record<string, string>;
}

/** A pom.xml shows only the dependency the recipe adds: the RFC 8785 library. */
function shown(file: string, text: string) {
  if (!file.endsWith('pom.xml')) return text;
  const dependency = /^ *<dependency>\s*<groupId>io\.github\.erdtman<\/groupId>[\s\S]*?<\/dependency>/m.exec(text)?.[0];
  if (!dependency) throw new Error(`${file} no longer names io.github.erdtman's library: update scripts/docs-webhooks.ts`);
  return dependency.replace(/^ {4}/gm, '');
}

export function webhooksPage(doNotEdit: string, base = root) {
  const doc = sections(readFileSync(join(base, 'docs', 'webhooks.md'), 'utf8'));
  const why = new Map([...(doc['Why these libraries'] ?? '').matchAll(/^- \*\*(\w+)\*\*: ([\s\S]*?)(?=\n- |\n*(?![\s\S]))/gm)].map((m) => [m[1]!, m[2]!]));
  const languageSections = recipes.map(({ language, files, receiver }) => {
    const reason = why.get(language);
    if (!reason) throw new Error(`docs/webhooks.md's "Why these libraries" has no **${language}** item`);
    const code = files.map((file) => `<figure><figcaption><code>${escapeHtml(file)}</code></figcaption><pre tabindex="0"><code>${escapeHtml(shown(file, readFileSync(join(base, file), 'utf8')))}</code></pre></figure>`);
    const id = language.toLowerCase();
    return `  <section aria-labelledby="${id}">
    <h2 id="${id}">${language}</h2>
    <p><strong>Why this library:</strong> ${inlineMarkdown(reason.replace(/\s+/g, ' '))}</p>
    ${code.join('\n    ')}
    <p class="meta">A receiver that uses it: <code>${escapeHtml(receiver)}</code>.</p>
  </section>`;
  });
  const body = `<header>
  <nav class="crumbs" aria-label="Breadcrumb"><a href="./index.html">Ramp API reference</a> › Guides</nav>
  <h1>Verify a webhook delivery</h1>
  <p>Every webhook of v1 and v2 is signed. The rule, then the code that checks it in each language, as the repository has it and as CI tests it on the shared vectors and on live deliveries from the sandbox.</p>
  <nav aria-label="Languages"><p>${recipes.map(({ language }) => `<a href="#${language.toLowerCase()}">${language}</a>`).join(' · ')}</p></nav>
</header>
<main>
  <section aria-labelledby="rule">
    <h2 id="rule">The rule</h2>
    ${markdownBlocks(doc.lead)}
  </section>
  <section aria-labelledby="recipes">
    <h2 id="recipes">The recipes</h2>
    ${markdownBlocks(doc['The recipes'] ?? '')}
  </section>
${languageSections.join('\n')}
</main>`;
  return htmlPage({ title: 'Verify a webhook delivery · Ramp API reference', body, doNotEdit, style: 'figure{margin:1rem 0}figcaption{font-size:.9rem;margin-bottom:.25rem}' });
}
