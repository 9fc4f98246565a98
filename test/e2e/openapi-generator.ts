import { execFile, spawnSync } from 'node:child_process';
import { cp, readdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPO = resolve(__dirname, '../../..');
/** Generators and compilers print a lot; the tests keep it to show on a failure. */
const BUFFER = 64 * 1024 * 1024;

/** Why the Java side cannot run here (no `java`, `javac` or `mvn` on PATH), or null. */
export function javaToolsMissing(): string | null {
  for (const [tool, flag] of [
    ['java', '-version'],
    ['javac', '-version'],
    ['mvn', '-v'],
  ]) {
    if (spawnSync(tool, [flag], { stdio: 'ignore' }).status !== 0)
      return `${tool} is not installed (Java 17 and Maven run the generated-client tests)`;
  }
  return null;
}

/** The OpenAPI Generator CLI jar, fetched once into .infra/lib by scripts/openapi/fetch.sh. */
export async function generatorJar(): Promise<string> {
  const { stdout } = await run('bash', [join(REPO, 'scripts/openapi/fetch.sh'), 'generator'], {
    maxBuffer: BUFFER,
  });
  return stdout.trim();
}

/** `java -jar <generator> <args>`: its output, or a rejection that carries it. */
export async function openApiGenerator(jar: string, args: string[]): Promise<string> {
  const { stdout, stderr } = await run('java', ['-jar', jar, ...args], { maxBuffer: BUFFER });
  return stdout + stderr;
}

/**
 * Compiles `flow.ts` of test/openapi-clients/typescript against the typescript-fetch client
 * generated into `dir/generated`, with the DOM's fetch types as a browser or Node.js user has
 * them; returns the compiled file.
 */
export async function compileTypeScriptFlow(dir: string): Promise<string> {
  await cp(join(REPO, 'test/openapi-clients/typescript/flow.ts'), join(dir, 'flow.ts'));
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'commonjs',
      moduleResolution: 'node10',
      lib: ['ES2022', 'DOM'],
      strict: true,
      skipLibCheck: true,
      outDir: 'out',
      types: ['node'],
      typeRoots: [join(REPO, 'node_modules/@types')],
    },
    files: ['flow.ts'],
  };
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  await run(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', dir], {
    cwd: dir,
    maxBuffer: BUFFER,
  });
  return join(dir, 'out/flow.js');
}

/**
 * Compiles the Java client generated into `dir` (okhttp-gson: its src/main/java) with
 * test/openapi-clients/java/VerityFlow.java, against the jars its pom names (fetched from Maven
 * Central once); returns the class path to run VerityFlow with.
 */
export async function compileJavaFlow(dir: string): Promise<string> {
  const { stdout } = await run(
    'bash',
    [join(REPO, 'scripts/openapi/fetch.sh'), 'java-deps', join(dir, 'pom.xml')],
    { maxBuffer: BUFFER },
  );
  const jars = join(stdout.trim(), '*');
  const sources = (await readdir(join(dir, 'src/main/java'), { recursive: true }))
    .filter((file) => file.endsWith('.java'))
    .map((file) => join(dir, 'src/main/java', file));
  const classes = join(dir, 'classes');
  await run(
    'javac',
    [
      '-nowarn',
      '-encoding',
      'UTF-8',
      '-d',
      classes,
      '-cp',
      jars,
      ...sources,
      join(REPO, 'test/openapi-clients/java/VerityFlow.java'),
    ],
    { maxBuffer: BUFFER },
  );
  return `${classes}:${jars}`;
}

/** Runs a compiled flow; its stdout (one `ok` line per step, then the operations it called). */
export async function runFlow(command: string, args: string[]): Promise<string> {
  const { stdout } = await run(command, args, { maxBuffer: BUFFER });
  return stdout;
}

/** The `{"operations":[…]}` line a flow ends with. */
export function calledOperations(stdout: string): string[] {
  const last = stdout.trim().split('\n').pop() ?? '';
  return (JSON.parse(last) as { operations: string[] }).operations;
}
