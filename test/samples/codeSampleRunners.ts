/**
 * Builds and runs the code samples of one language (x-codeSamples, scripts/code-samples.ts),
 * each built once for all its samples, as the issue asks: one TypeScript run under tsx, one
 * Python run (a venv with the one package the samples use, `requests`), one Go program with a
 * function per operation, one Java compilation run in one JVM, and curl under bash. Every sample
 * is run as written but for the base URL and ids the test substitutes; what it printed and its
 * exit code come back per operation. The tools' own output goes to
 * test-results/samples-code/<language>.log (recipes.ts says why it never reaches the console).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { javaClassOf } from '../../scripts/code-samples-languages.ts';
import { root } from '../support/documents.ts';
import { run } from './recipes.ts';

export const logs = join(root, 'test-results', 'samples-code');
const cache = join(root, '.tools', 'code-samples');

/** What one sample did: everything it printed (stdout, then stderr) and its exit code. */
export interface SampleRun {
  output: string;
  code: number;
}

/** The samples of one language to run, by operationId, in order. */
export type Samples = [operationId: string, source: string][];

export interface LanguageRunner {
  /** The x-codeSamples `lang`. */
  lang: string;
  run(samples: Samples, dir: string, env: Record<string, string>, log: string): Promise<Map<string, SampleRun>>;
  /**
   * Builds the samples once, then runs one at a time, each as its own program with its own
   * environment: the quickstart (quickstart.test.ts) gives each step the ids the steps before printed.
   */
  build(samples: Samples, dir: string, log: string): Promise<RunOne>;
}

export type RunOne = (operationId: string, env: Record<string, string>) => Promise<SampleRun>;

/** Runs one command to its end and keeps what it printed. */
function capture(command: string, args: string[], env: Record<string, string>, cwd: string): Promise<SampleRun> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env, PYTHONDONTWRITEBYTECODE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', fail);
    child.on('close', (code) => done({ output: stdout + stderr, code: code ?? -1 }));
  });
}

/** Reads the `<operationId>.out` / `.exit` files a one-process runner wrote. */
function readResults(samples: Samples, dir: string): Map<string, SampleRun> {
  const results = new Map<string, SampleRun>();
  for (const [operationId] of samples) {
    const out = join(dir, 'results', `${operationId}.out`);
    if (!existsSync(out)) continue;
    results.set(operationId, { output: readFileSync(out, 'utf8'), code: Number(readFileSync(join(dir, 'results', `${operationId}.exit`), 'utf8')) });
  }
  return results;
}

/** One process per sample (curl, the Go program): cheap to start, and each may exit on its own. */
async function eachInItsProcess(samples: Samples, command: (operationId: string) => string[], env: Record<string, string>, dir: string) {
  const results = new Map<string, SampleRun>();
  for (const [operationId] of samples) {
    const [program, ...args] = command(operationId) as [string, ...string[]];
    results.set(operationId, await capture(program, args, env, dir));
  }
  return results;
}

async function finish(runner: Promise<SampleRun>, log: string, what: string) {
  const { output, code } = await runner;
  writeFileSync(log, output, { flag: 'a' });
  if (code !== 0) throw new Error(`${what} exited ${code}: see ${log}`);
}

const tsx = join(root, 'node_modules', '.bin', 'tsx');

function writeTypeScript(samples: Samples, dir: string) {
  for (const [operationId, source] of samples) writeFileSync(join(dir, `${operationId}.mts`), source);
  // tsx resolves `@ramp/client` by this tsconfig's paths, as a partner's bundler resolves the package.
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', paths: { '@ramp/client': [join(root, 'client', 'index.ts')] } } }));
}

const typescript: LanguageRunner = {
  lang: 'TypeScript',
  async build(samples, dir) {
    writeTypeScript(samples, dir);
    return (operationId, env) => capture(tsx, [`${operationId}.mts`], env, dir);
  },
  async run(samples, dir, env, log) {
    writeTypeScript(samples, dir);
    writeFileSync(join(dir, 'runner.mts'), `import { mkdirSync, writeFileSync } from 'node:fs';
import { format } from 'node:util';
mkdirSync('results', { recursive: true });
for (const operationId of process.argv.slice(2)) {
  const lines: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => void lines.push(format(...args));
  let code = 0;
  try {
    await import(\`./\${operationId}.mts\`);
  } catch (error) {
    code = 1;
    const status = (error as { status?: unknown }).status;
    lines.push(...(typeof status === 'number' ? [String(status)] : []), String(error));
  } finally {
    console.log = log;
  }
  writeFileSync(\`results/\${operationId}.out\`, lines.join('\\n'));
  writeFileSync(\`results/\${operationId}.exit\`, String(code));
}
`);
    await finish(capture(tsx, ['runner.mts', ...samples.map(([id]) => id)], env, dir), log, 'the TypeScript run');
    return readResults(samples, dir);
  },
};

const curl: LanguageRunner = {
  lang: 'Shell',
  async build(samples, dir) {
    for (const [operationId, source] of samples) writeFileSync(join(dir, `${operationId}.sh`), source);
    return (operationId, env) => capture('bash', ['-eu', `${operationId}.sh`], env, dir);
  },
  async run(samples, dir, env) {
    for (const [operationId, source] of samples) writeFileSync(join(dir, `${operationId}.sh`), source);
    return eachInItsProcess(samples, (operationId) => ['bash', '-eu', `${operationId}.sh`], env, dir);
  },
};

/** The one package the Python samples import, at the version the venv installs. */
const pythonRequirements = 'requests==2.34.2\n';

/** The venv's interpreter, the venv made first when it is missing or was made for other requirements. */
async function pythonInterpreter(log: string): Promise<string> {
  const venv = join(cache, 'python-venv');
  const interpreter = join(venv, 'bin', 'python');
  const stamp = join(venv, 'built-from');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== pythonRequirements) {
    rmSync(venv, { recursive: true, force: true });
    await run('python3', ['-m', 'venv', venv], log);
    await run(interpreter, ['-m', 'pip', 'install', '--disable-pip-version-check', '-q', ...pythonRequirements.trim().split('\n')], log);
    writeFileSync(stamp, pythonRequirements);
  }
  return interpreter;
}

const python: LanguageRunner = {
  lang: 'Python',
  async build(samples, dir, log) {
    const interpreter = await pythonInterpreter(log);
    for (const [operationId, source] of samples) writeFileSync(join(dir, `${operationId}.py`), source);
    return (operationId, env) => capture(interpreter, [`${operationId}.py`], env, dir);
  },
  async run(samples, dir, env, log) {
    const interpreter = await pythonInterpreter(log);
    for (const [operationId, source] of samples) writeFileSync(join(dir, `${operationId}.py`), source);
    // Each sample runs as its own script would (a fresh `__main__`), in one interpreter.
    writeFileSync(join(dir, 'runner.py'), `import contextlib, io, os, sys, traceback
os.makedirs("results", exist_ok=True)
for operation_id in sys.argv[1:]:
    out, code = io.StringIO(), 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            with open(f"{operation_id}.py", encoding="utf-8") as source:
                exec(compile(source.read(), f"{operation_id}.py", "exec"), {"__name__": "__main__"})
        except SystemExit as exit:
            if exit.code not in (None, 0):
                code = 1
                print(exit.code, file=sys.stderr)
        except BaseException:
            code = 1
            traceback.print_exc()
    with open(f"results/{operation_id}.out", "w", encoding="utf-8") as result:
        result.write(out.getvalue())
    with open(f"results/{operation_id}.exit", "w", encoding="utf-8") as result:
        result.write(str(code))
`);
    await finish(capture(interpreter, ['runner.py', ...samples.map(([id]) => id)], env, dir), log, 'the Python run');
    return readResults(samples, dir);
  },
};

/** One program for all the samples: each `package main` file's main becomes a function named after its operation. */
async function buildGo(samples: Samples, dir: string, log: string) {
  for (const [operationId, source] of samples) {
    if (!source.includes('\nfunc main() {\n')) throw new Error(`${operationId}: the Go sample has no func main`);
    writeFileSync(join(dir, `${operationId}.go`), source.replace('\nfunc main() {\n', `\nfunc ${operationId}() {\n`));
  }
  writeFileSync(join(dir, 'go.mod'), 'module ramp.example/samples\n\ngo 1.21\n');
  writeFileSync(join(dir, 'zz_main.go'), `package main

import "os"

var samples = map[string]func(){
${samples.map(([id]) => `\t${JSON.stringify(id)}: ${id},`).join('\n')}
}

func main() { samples[os.Args[1]]() }
`);
  // The standard library only: nothing to download.
  await run('go', ['build', '-o', 'samples', '.'], log, dir);
}

const go: LanguageRunner = {
  lang: 'Go',
  async build(samples, dir, log) {
    await buildGo(samples, dir, log);
    return (operationId, env) => capture('./samples', [operationId], env, dir);
  },
  async run(samples, dir, env, log) {
    await buildGo(samples, dir, log);
    return eachInItsProcess(samples, (operationId) => ['./samples', operationId], env, dir);
  },
};

const java: LanguageRunner = {
  lang: 'Java',
  async build(samples, dir, log) {
    for (const [operationId, source] of samples) writeFileSync(join(dir, `${javaClassOf(operationId)}.java`), source);
    mkdirSync(join(dir, 'classes'), { recursive: true });
    await run('javac', ['-encoding', 'UTF-8', '-d', 'classes', ...samples.map(([id]) => `${javaClassOf(id)}.java`)], log, dir);
    return (operationId, env) => capture('java', ['-cp', 'classes', javaClassOf(operationId)], env, dir);
  },
  async run(samples, dir, env, log) {
    for (const [operationId, source] of samples) writeFileSync(join(dir, `${javaClassOf(operationId)}.java`), source);
    // One JVM runs every sample's main in turn, its output captured per sample.
    writeFileSync(join(dir, 'SampleRunner.java'), `import java.io.*;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;

public class SampleRunner {
    public static void main(String[] args) throws Exception {
        Files.createDirectories(Path.of("results"));
        PrintStream out = System.out, err = System.err;
        for (int i = 0; i < args.length; i += 2) {
            ByteArrayOutputStream captured = new ByteArrayOutputStream();
            PrintStream into = new PrintStream(captured, true, StandardCharsets.UTF_8);
            System.setOut(into);
            System.setErr(into);
            int code = 0;
            try {
                Class.forName(args[i + 1]).getMethod("main", String[].class).invoke(null, (Object) new String[0]);
            } catch (InvocationTargetException e) {
                code = 1;
                e.getCause().printStackTrace(into);
            } finally {
                System.setOut(out);
                System.setErr(err);
            }
            Files.writeString(Path.of("results", args[i] + ".out"), captured.toString(StandardCharsets.UTF_8));
            Files.writeString(Path.of("results", args[i] + ".exit"), String.valueOf(code));
        }
    }
}
`);
    mkdirSync(join(dir, 'classes'), { recursive: true });
    await run('javac', ['-encoding', 'UTF-8', '-d', 'classes', ...samples.map(([id]) => `${javaClassOf(id)}.java`), 'SampleRunner.java'], log, dir);
    await finish(capture('java', ['-cp', 'classes', 'SampleRunner', ...samples.flatMap(([id]) => [id, javaClassOf(id)])], env, dir), log, 'the Java run');
    return readResults(samples, dir);
  },
};

export const runners: LanguageRunner[] = [curl, typescript, python, go, java];
