/**
 * The code samples in curl, Python, Go and Java, each written from one description of an
 * operation's documented example request (SampleRequest, made by scripts/code-samples.ts).
 * Each uses the HTTP client a partner of that language writes without a generated client
 * (docs/clients.md, "Code samples"): curl; Python's `requests`; Go's net/http with
 * encoding/json; Java 17's java.net.http.HttpClient (no JSON library: the JDK has none). Each
 * prints the status first, then the body, or reads the documented error and fails: the
 * samples' test (test/samples/codeSamples.test.ts) runs every one against a sandbox.
 */
export type Json = Record<string, any>;

/** What one operation's sample sends, and how it reads the answer. */
export interface SampleRequest {
  operationId: string;
  method: string;
  /** The base URL and the path with its documented example parameters (and required query). */
  url: string;
  /** Sends `Authorization: $RAMP_API_KEY` (the raw key). */
  apiKey: boolean;
  /** The documented example body (JSON), if the operation takes one. */
  body?: unknown;
  /** What a success answers: a JSON body, a text page, or nothing (204). */
  answers: 'json' | 'text' | 'empty';
  /**
   * The documented error body: an RFC 9457 problem (v2), `{"error"}` (v1, lookup), an OAuth
   * error (`error`, `error_description`), or an HTML page.
   */
  problem: 'problem' | 'error' | 'oauth' | 'text';
}

/**
 * A value a sample reads from its environment, as it reads RAMP_API_KEY: written `${NAME}` in
 * a URL or a body's string (the quickstart's ids from the steps before, scripts/docs-quickstart.ts).
 * No documented example holds one, so the reference's samples are unchanged by it.
 */
export const variablePattern = /\$\{([A-Z][A-Z0-9_]*)\}/g;

/** `text` as the literal `quoted` writes, or, when it holds a `${NAME}`, its parts and each `read(NAME)` joined by `join`. */
export function spliced(text: string, quoted: (text: string) => string, read: (name: string) => string, join: string): string {
  const parts = text.split(new RegExp(variablePattern.source));
  if (parts.length === 1) return quoted(text);
  return parts.flatMap((part, i) => (i % 2 ? [read(part)] : part ? [quoted(part)] : [])).join(join);
}

export const sampleLanguages = [
  { lang: 'Shell', label: 'curl' },
  { lang: 'Python', label: 'Python (requests)' },
  { lang: 'Go', label: 'Go (net/http)' },
  { lang: 'Java', label: 'Java (java.net.http)' },
] as const;

export type SampleLanguage = (typeof sampleLanguages)[number]['lang'];

/** A JSON value as a literal of a language: its constants and how a map and a list are written. */
function literal(value: unknown, o: { true: string; false: string; null: string; indent: string; string: (text: string) => string }, depth = 0): string {
  const pad = o.indent.repeat(depth + 1);
  const end = o.indent.repeat(depth);
  if (value === null) return o.null;
  if (value === true) return o.true;
  if (value === false) return o.false;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => pad + literal(v, o, depth + 1)).join(',\n')},\n${end}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Json);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, v]) => `${pad}${JSON.stringify(k)}: ${literal(v, o, depth + 1)}`).join(',\n')},\n${end}}`;
  }
  return typeof value === 'string' ? o.string(value) : JSON.stringify(value);
}

/** True when the request reads a value from the environment besides the key (`${NAME}`). */
const readsVariables = (request: SampleRequest) => new RegExp(variablePattern.source).test(`${request.url} ${JSON.stringify(request.body ?? null)}`);

const json = (body: unknown) => JSON.stringify(body, null, 2);
const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
/**
 * A shell word: single-quoted; with a `${NAME}`, double-quoted when nothing else in it is
 * special there (a URL), else with each `"$NAME"` spliced between single-quoted parts (JSON).
 */
function shellWord(text: string): string {
  const rest = text.replace(new RegExp(variablePattern.source, 'g'), '');
  if (rest !== text && !/["$`\\!]/.test(rest)) return `"${text}"`;
  return spliced(text, shellQuote, (name) => `"$${name}"`, '');
}

/** The comment that says how the documented error reads, per shape, after a language's comment marker. */
function problemComment(request: SampleRequest, marker: string): string {
  const says = {
    problem: 'an RFC 9457 problem (application/problem+json): branch on its slug, the last segment of `type`; `detail` says why',
    error: 'the documented `{"error": "…"}`: a message for display and logs; branch on the status',
    oauth: 'an OAuth error (RFC 6749): branch on `error` (invalid_grant, invalid_request, …)',
    text: 'an HTML page for the browser: show it, or log its status',
  }[request.problem];
  return `${marker} On 4xx/5xx the body is ${says}.`;
}

export function curlSample(request: SampleRequest): string {
  const lines = [`curl -sS -i --fail-with-body${request.method === 'GET' ? '' : ` -X ${request.method}`} ${shellWord(request.url)}`];
  if (request.apiKey) lines.push(`-H "Authorization: $RAMP_API_KEY"`);
  if (request.body !== undefined) lines.push(`-H 'Content-Type: application/json'`, `-d ${shellWord(json(request.body))}`);
  return `${problemComment(request, '#')}\n# -i prints the status line first; --fail-with-body exits 22 on an error, after printing its body.\n${lines.join(' \\\n  ')}\n`;
}

const pythonString = (text: string) => spliced(text, JSON.stringify, (name) => `os.environ["${name}"]`, ' + ');

export function pythonSample(request: SampleRequest): string {
  const args = [pythonString(request.url)];
  if (request.apiKey) args.push(`headers={"Authorization": os.environ["RAMP_API_KEY"]},  # the raw key, no "Bearer"`);
  if (request.body !== undefined) args.push(`json=${literal(request.body, { true: 'True', false: 'False', null: 'None', indent: '    ', string: pythonString }, 1)},`);
  args.push('timeout=30,');
  const call = `response = requests.${request.method.toLowerCase()}(\n    ${args.map((a, i) => (i === 0 ? `${a},` : a)).join('\n    ')}\n)`;
  const fail = {
    problem: `problem = response.json()\n    raise SystemExit(f"{response.status_code} {problem['type'].rsplit('/', 1)[-1]}: {problem['detail']}")`,
    error: `raise SystemExit(f"{response.status_code}: {response.json()['error']}")`,
    oauth: `error = response.json()\n    raise SystemExit(f"{response.status_code} {error['error']}: {error.get('error_description', '')}")`,
    text: `raise SystemExit(f"{response.status_code}: {response.text}")`,
  }[request.problem];
  const read = { json: 'print(response.json())\n', text: 'print(response.text)\n', empty: '' }[request.answers];
  return `${request.apiKey || readsVariables(request) ? 'import os\n\n' : ''}import requests

${call}
print(response.status_code)
if not response.ok:
    ${problemComment(request, '#')}
    ${fail}
${read}`;
}

/** A Go string literal: a raw one unless the text holds a backquote. */
const goString = (text: string) => (text.includes('`') ? JSON.stringify(text) : `\`${text}\``);

export function goSample(request: SampleRequest): string {
  const imports = new Set(['fmt', 'log', 'net/http']);
  const body = request.body !== undefined;
  if (body) imports.add('bytes');
  if (request.apiKey || readsVariables(request)) imports.add('os');
  const goRead = (name: string) => `os.Getenv("${name}")`;
  if (request.problem !== 'text' || request.answers === 'json') imports.add('encoding/json');
  if (request.problem === 'problem') imports.add('strings');
  if (request.problem === 'text' || request.answers === 'text') imports.add('io');
  const headers = [
    ...(request.apiKey ? [`req.Header.Set("Authorization", os.Getenv("RAMP_API_KEY")) // the raw key, no "Bearer"`] : []),
    ...(body ? ['req.Header.Set("Content-Type", "application/json")'] : []),
  ];
  const fail = {
    problem: `var problem struct {
			Type   string \`json:"type"\`
			Detail string \`json:"detail"\`
		}
		if err := json.NewDecoder(resp.Body).Decode(&problem); err != nil {
			log.Fatal(err)
		}
		log.Fatalf("%d %s: %s", resp.StatusCode, problem.Type[strings.LastIndex(problem.Type, "/")+1:], problem.Detail)`,
    error: `var failure struct {
			Error string \`json:"error"\`
		}
		if err := json.NewDecoder(resp.Body).Decode(&failure); err != nil {
			log.Fatal(err)
		}
		log.Fatalf("%d: %s", resp.StatusCode, failure.Error)`,
    oauth: `var failure struct {
			Error       string \`json:"error"\`
			Description string \`json:"error_description"\`
		}
		if err := json.NewDecoder(resp.Body).Decode(&failure); err != nil {
			log.Fatal(err)
		}
		log.Fatalf("%d %s: %s", resp.StatusCode, failure.Error, failure.Description)`,
    text: `page, _ := io.ReadAll(resp.Body)
		log.Fatalf("%d: %s", resp.StatusCode, page)`,
  }[request.problem];
  const read = {
    json: `var result any
	if err := json.NewDecoder(resp.Body).Decode(&result); err != nil {
		log.Fatal(err)
	}
	fmt.Println(result)
`,
    text: `page, err := io.ReadAll(resp.Body)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(page))
`,
    empty: '',
  }[request.answers];
  return `package main

import (
${[...imports].sort().map((i) => `\t"${i}"`).join('\n')}
)

func main() {
${body ? `\tbody := []byte(${spliced(json(request.body), goString, goRead, ' + ').replaceAll('\n', '\n\t')})\n` : ''}\treq, err := http.NewRequest(${JSON.stringify(request.method)}, ${spliced(request.url, JSON.stringify, goRead, ' + ')}, ${body ? 'bytes.NewReader(body)' : 'nil'})
	if err != nil {
		log.Fatal(err)
	}
${headers.map((h) => `\t${h}\n`).join('')}\tresp, err := http.DefaultClient.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	fmt.Println(resp.Status)
	if resp.StatusCode >= 400 {
		${problemComment(request, '//')}
		${fail}
	}
${read ? `\t${read}` : ''}}
`;
}

/** The class a Java sample declares: the operationId in PascalCase (its file is `<class>.java`). */
export const javaClassOf = (operationId: string) => operationId[0]!.toUpperCase() + operationId.slice(1);

/** A Java text block holding `text` as it is: backslashes and `"""` escaped. */
const textBlock = (text: string, indent: string) =>
  `"""\n${text.replaceAll('\\', '\\\\').replaceAll('"""', '\\"""').split('\n').map((l) => indent + l).join('\n')}\n${indent}"""`;

/** The builder's call for a method: its own (`.GET()`, `.POST(…)`) where HttpRequest.Builder has one. */
function javaMethod(method: string, publisher: string): string {
  if (method === 'GET' || method === 'DELETE') return `.${method}()`;
  if (method === 'POST' || method === 'PUT') return `.${method}(${publisher})`;
  return `.method(${JSON.stringify(method)}, ${publisher})`;
}

export function javaSample(request: SampleRequest): string {
  const body = request.body !== undefined;
  const javaRead = (name: string) => `System.getenv("${name}")`;
  // A body's variables are the text block's `%s`, in order (String.formatted).
  const bodyText = body ? json(request.body) : '';
  const bodyReads = [...bodyText.matchAll(variablePattern)].map((m) => javaRead(m[1]!));
  const block = bodyReads.length ? `${textBlock(bodyText.replaceAll('%', '%%').replace(variablePattern, '%s'), '            ')}.formatted(${bodyReads.join(', ')})` : textBlock(bodyText, '            ');
  const builder = [
    `HttpRequest.newBuilder(URI.create(${spliced(request.url, JSON.stringify, javaRead, ' + ')}))`,
    ...(request.apiKey ? ['.header("Authorization", System.getenv("RAMP_API_KEY")) // the raw key, no "Bearer"'] : []),
    ...(body ? ['.header("Content-Type", "application/json")'] : []),
    javaMethod(request.method, body ? 'HttpRequest.BodyPublishers.ofString(body)' : 'HttpRequest.BodyPublishers.noBody()'),
    '.build();',
  ];
  const decode = {
    problem: '// With your JSON library (Jackson, Gson): read `type` (its last segment is the slug) and `detail`.',
    error: '// With your JSON library (Jackson, Gson): read `error`.',
    oauth: '// With your JSON library (Jackson, Gson): read `error` and `error_description`.',
    text: '',
  }[request.problem];
  return `import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

public class ${javaClassOf(request.operationId)} {
    public static void main(String[] args) throws Exception {
${body ? `        String body = ${block};\n` : ''}        HttpRequest request = ${builder.join('\n            ')}
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        System.out.println(response.statusCode());
        if (response.statusCode() >= 400) {
            ${problemComment(request, '//')}
${decode ? `            ${decode}\n` : ''}            throw new IllegalStateException(response.statusCode() + ": " + response.body());
        }
${request.answers === 'empty' ? '' : '        System.out.println(response.body());\n'}    }
}
`;
}

export const samplers: Record<SampleLanguage, (request: SampleRequest) => string> = {
  Shell: curlSample,
  Python: pythonSample,
  Go: goSample,
  Java: javaSample,
};
