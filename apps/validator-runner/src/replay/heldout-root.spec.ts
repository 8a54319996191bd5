import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeldoutRootError, prepareHeldoutRoot } from './heldout-root';

/** Builds a tar with Python's tarfile: `members` are [name, text] files, or [name, {symlink}] / [name, {dir}]. */
function tar(path: string, members: [string, string | { symlink: string } | { dir: true }][], format = 'PAX_FORMAT'): void {
  const script = `import io, json, sys, tarfile
members = json.loads(sys.argv[2])
with tarfile.open(sys.argv[1], "w", format=getattr(tarfile, sys.argv[3])) as out:
    for name, what in members:
        info = tarfile.TarInfo(name)
        if isinstance(what, str):
            data = what.encode()
            info.size = len(data)
            out.addfile(info, io.BytesIO(data))
        elif "symlink" in what:
            info.type = tarfile.SYMTYPE
            info.linkname = what["symlink"]
            out.addfile(info)
        else:
            info.type = tarfile.DIRTYPE
            out.addfile(info)
`;
  execFileSync('python3', ['-c', script, path, JSON.stringify(members), format]);
}

describe('prepareHeldoutRoot (DECISIONS §15: their manifest and root on the host)', () => {
  let dir: string;
  let count = 0;
  const fresh = () => join(dir, `root-${(count += 1)}`);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'heldout-root-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const reason = async (shard: string, maxBytes = 1 << 20): Promise<string> => {
    const error = await prepareHeldoutRoot(shard, fresh(), maxBytes).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HeldoutRootError);
    return (error as Error).message;
  };

  it('unpacks a tar into a fresh root holding manifest.json, with every path entry checked', async () => {
    const shard = join(dir, 'good.tar');
    const manifest = { datasets: { web: [{ path: 'rows/0.txt', dataset: 'web' }] }, documents: ['inline text', { text: 'more' }, { file: 'rows/long-name-' + 'x'.repeat(120) + '.txt' }] };
    tar(shard, [
      ['manifest.json', JSON.stringify(manifest)],
      ['rows', { dir: true }],
      ['rows/0.txt', 'first document\n'],
      ['rows/long-name-' + 'x'.repeat(120) + '.txt', 'a pax-named document\n'],
    ]);
    const root = fresh();
    const prepared = await prepareHeldoutRoot(shard, root, 1 << 20);
    expect(prepared).toEqual({ root, manifest: join(root, 'manifest.json'), documents: 4 });
    expect(readFileSync(join(root, 'rows', '0.txt'), 'utf8')).toBe('first document\n');
    // The GNU format's long names unpack the same way.
    tar(shard, [['manifest.json', '["a"]'], [`deep/${'y'.repeat(120)}.txt`, 'z']], 'GNU_FORMAT');
    await expect(prepareHeldoutRoot(shard, fresh(), 1 << 20)).resolves.toMatchObject({ documents: 1 });
  });

  it('takes a JSON document as the manifest itself', async () => {
    const shard = join(dir, 'manifest.json');
    writeFileSync(shard, JSON.stringify({ categories: { prose: ['one', 'two'] } }));
    const root = fresh();
    await expect(prepareHeldoutRoot(shard, root, 1 << 20)).resolves.toEqual({ root, manifest: join(root, 'manifest.json'), documents: 2 });
  });

  it('refuses links, unsafe names, oversized archives and archives without a manifest', async () => {
    const shard = join(dir, 'bad.tar');
    tar(shard, [['manifest.json', '["a"]'], ['rows/0.txt', { symlink: '/etc/passwd' }]]);
    expect(await reason(shard)).toBe('the private held-out archive member "rows/0.txt" is not a regular file or directory (type 2)');
    tar(shard, [['manifest.json', '["a"]'], ['../escape.txt', 'x']]);
    expect(await reason(shard)).toBe('the private held-out archive has an unsafe member name "../escape.txt"');
    tar(shard, [['manifest.json', '["a"]'], ['/abs.txt', 'x']]);
    expect(await reason(shard)).toMatch(/unsafe member name "\/abs.txt"/);
    tar(shard, [['manifest.json', '["a"]'], ['big.txt', 'x'.repeat(2000)]]);
    expect(await reason(shard, 1000)).toBe('the private held-out archive unpacks to more than 1000 bytes');
    tar(shard, [['rows/0.txt', 'x']]);
    expect(await reason(shard)).toBe('the private held-out archive holds no manifest.json');
    writeFileSync(shard, 'neither');
    expect(await reason(shard)).toBe('the private held-out shard is neither a tar archive nor a JSON manifest');
  });

  it('refuses manifests whose entries are malformed, outside the root, empty or not UTF-8', async () => {
    const shard = join(dir, 'entries.tar');
    const cases: [unknown, [string, string][], string][] = [
      [{}, [], 'the manifest has none of datasets, categories or documents'],
      [{ documents: [] }, [], 'the manifest lists no documents'],
      [{ documents: [''] }, [], 'manifest entry documents[0] is neither a non-empty string, {"text"} nor {"path"|"file"}'],
      [{ documents: [{ path: '../manifest.json' }] }, [], 'manifest path "../manifest.json" does not resolve to a file inside the root'],
      [{ documents: [{ path: 'missing.txt' }] }, [], 'manifest path "missing.txt" does not resolve to a file inside the root'],
      [{ documents: [{ path: 'empty.txt' }] }, [['empty.txt', '']], 'manifest path "empty.txt" is not a non-empty regular file'],
      [{ documents: [{ path: 'rows', sha256: 'a'.repeat(64) }] }, [['rows/x.txt', 'x']], 'manifest path "rows" is not a non-empty regular file'],
      [{ documents: [{ path: 'r.txt', sha256: 'a'.repeat(64) }] }, [['r.txt', 'x']], 'manifest path "r.txt" does not have the sha256 the manifest gives'],
    ];
    for (const [manifest, files, expected] of cases) {
      tar(shard, [['manifest.json', JSON.stringify(manifest)], ...files]);
      expect(await reason(shard)).toBe(expected);
    }
    const latin1 = join(dir, 'latin1.tar');
    execFileSync('python3', ['-c', `import io, tarfile
with tarfile.open("${latin1}", "w") as out:
    for name, data in (("manifest.json", b'{"documents": [{"path": "l.txt"}]}'), ("l.txt", b"caf\\xe9")):
        info = tarfile.TarInfo(name); info.size = len(data); out.addfile(info, io.BytesIO(data))
`]);
    expect(await reason(latin1)).toBe('manifest path "l.txt" is not UTF-8');
  });
});
