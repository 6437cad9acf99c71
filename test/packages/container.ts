/**
 * What the container recipe (sandbox/Dockerfile) needs to be built and run here, for
 * packages.test.ts: podman, set up for this machine, and a stand-in for the Node.js image the
 * recipe starts from.
 *
 * The recipe starts from `node:22-bookworm-slim`, which no registry this machine reaches
 * serves. The stand-in is the same thing made from its parts: Debian bookworm's minimal
 * system (debootstrap), the official Node.js build of that version (partner.ts
 * `nodeRuntime`), npm, and the `node` user (uid 1000) the official image has. It also carries
 * this machine's certificate authorities, which its network needs to reach the npm registry.
 * It is made once and kept under a tag that names this file's content, so a change here
 * makes it again.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { npm, partnerEnv, type NodeRuntime } from './partner.ts';

const run = promisify(execFile);

/**
 * podman's settings for this machine, in a containers.conf of the test's own: runc, as crun
 * refuses this kernel's cgroups (v1 and v2 mounted together), and open-file and process limits
 * under this machine's hard limits, which podman's defaults exceed. A partner's Docker or
 * podman needs neither.
 */
export function podmanEnvironment(work: string): Record<string, string> {
  const conf = join(work, 'containers.conf');
  writeFileSync(conf, '[containers]\ndefault_ulimits = ["nofile=10000:10000", "nproc=10000:10000"]\n\n[engine]\nruntime = "runc"\n');
  return { ...partnerEnv(undefined), CONTAINERS_CONF: conf };
}

/** `podman <args>`: its standard output, or a thrown error with its standard error. */
export async function podman(env: Record<string, string>, args: string[], cwd?: string): Promise<string> {
  try {
    const { stdout } = await run('podman', args, { env, cwd, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(`podman ${args.join(' ')} failed: ${stderr || message}`);
  }
}

/** What a container wrote, standard output and standard error together, as `docker logs` shows it in a terminal. */
export async function containerLog(env: Record<string, string>, name: string): Promise<string> {
  const { stdout, stderr } = await run('podman', ['logs', name], { env, maxBuffer: 64 * 1024 * 1024 });
  return `${stdout}${stderr}`;
}

/** The stand-in for `node:<major>-bookworm-slim` on `node`'s version: made unless already kept. */
export async function nodeImage(env: Record<string, string>, node: NodeRuntime, work: string): Promise<string> {
  const revision = createHash('sha256').update(readFileSync(import.meta.filename)).digest('hex').slice(0, 12);
  const tag = `localhost/ramp-test-node:${node.version}-${revision}`;
  const kept = await podman(env, ['image', 'exists', tag]).then(
    () => true,
    () => false,
  );
  if (kept) return tag;
  const rootfs = mkdtempSync(join(tmpdir(), 'ramp-node-image-'));
  try {
    await run('debootstrap', ['--variant=minbase', 'bookworm', rootfs, 'http://deb.debian.org/debian'], { env, maxBuffer: 64 * 1024 * 1024 });
    copyFileSync(join(node.dir, 'bin', 'node'), join(rootfs, 'usr', 'local', 'bin', 'node'));
    // npm as the official image has it: the npm package in /usr/local/lib, its two commands linked.
    const packed = join(work, 'npm-package');
    mkdirSync(packed, { recursive: true });
    const [tarball] = JSON.parse(await npm(undefined, ['pack', '--json', 'npm@10'], packed)) as { filename: string }[];
    const modules = join(rootfs, 'usr', 'local', 'lib', 'node_modules');
    mkdirSync(modules, { recursive: true });
    await run('tar', ['-xzf', join(packed, tarball!.filename), '-C', modules]);
    renameSync(join(modules, 'package'), join(modules, 'npm'));
    for (const command of ['npm', 'npx']) symlinkSync(`../lib/node_modules/npm/bin/${command}-cli.js`, join(rootfs, 'usr', 'local', 'bin', command));
    await run('chroot', [rootfs, 'useradd', '--uid', '1000', '--user-group', '--create-home', '--shell', '/bin/bash', 'node']);
    mkdirSync(join(rootfs, 'etc', 'ssl', 'certs'), { recursive: true });
    copyFileSync('/etc/ssl/certs/ca-certificates.crt', join(rootfs, 'etc', 'ssl', 'certs', 'ramp-host-ca.crt'));
    // As the slim image: no package archives, no package lists.
    for (const cache of [['var', 'cache', 'apt', 'archives'], ['var', 'lib', 'apt', 'lists']]) rmSync(join(rootfs, ...cache), { recursive: true, force: true });
    const archive = join(work, 'node-image.tar');
    await run('tar', ['-C', rootfs, '-cf', archive, '.'], { maxBuffer: 64 * 1024 * 1024 });
    await podman(env, ['import', '--change', 'CMD ["node"]', '--change', 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ramp-host-ca.crt', archive, tag]);
    rmSync(archive, { force: true });
    // The stand-ins an earlier revision of this file made are not used again.
    const images = await podman(env, ['images', '--format', '{{.Repository}}:{{.Tag}}', '--filter', 'reference=localhost/ramp-test-node']);
    const stale = images.split('\n').filter((name) => name.startsWith(`localhost/ramp-test-node:${node.version}-`) && name !== tag);
    if (stale.length > 0) await podman(env, ['rmi', '--force', ...stale]);
    return tag;
  } finally {
    rmSync(rootfs, { recursive: true, force: true });
  }
}
