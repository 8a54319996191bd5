/**
 * `node -r @swc-node/register tools/bench/auth.ts`: sr25519 verifications per second of the
 * library's full path next to raw @polkadot/wasm-crypto and util-crypto's pure-JS path, and
 * canonical-body throughput on a ~2 KiB body. About 10 s.
 */
import { sr25519Verify } from '@polkadot/wasm-crypto';
import { decodeAddress, signatureVerify } from '@polkadot/util-crypto';
import { BtAuthSigner, buildMessage, canonicalBody, cryptoReady, keypairFromUri, verifySignature } from '@rcs/auth';

const SECONDS_PER_CASE = 1.6;
const WARMUP_SECONDS = 0.2;

interface Result {
  name: string;
  opsPerSecond: number;
}

/** Runs `fn` in batches for a fixed time after a warm-up, and returns calls per second. */
function measure(name: string, fn: () => unknown): Result {
  const runFor = (seconds: number): number => {
    const deadline = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9));
    const start = process.hrtime.bigint();
    let calls = 0;
    let end = start;
    while (end < deadline) {
      for (let i = 0; i < 16; i++) if (fn() === false) throw new TypeError(`${name} returned false`);
      calls += 16;
      end = process.hrtime.bigint();
    }
    return calls / (Number(end - start) / 1e9);
  };
  runFor(WARMUP_SECONDS);
  return { name, opsPerSecond: runFor(SECONDS_PER_CASE) };
}

/** A JSON body of about 2 KiB in the shape of a submission. */
function submissionBody(): string {
  const metrics = Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`metric_${31 - i}`, 254.0 + i / 7]));
  return JSON.stringify({
    claim_id: 'c-1',
    base_ref: '0123456789abcdef0123456789abcdef01234567',
    summary: 'Ternary artifact \u2014 d\u00e9j\u00e0 vu, 4-bit weights \u{1F680}'.repeat(10),
    claimed_metrics: metrics,
    tags: ['a', 'b', 'c', 1, 2.5, null, true],
    proposed_idea: 'Replace the attention softmax with a sparse top-k gate.'.repeat(6),
    artifact_sha256: 'ab'.repeat(32),
    artifact_size_bytes: 301118,
  }, null, 1);
}

function table(rows: Result[], baseline: Result): string {
  const width = Math.max(...rows.map((r) => r.name.length));
  const lines = rows.map(
    (r) =>
      `${r.name.padEnd(width)}  ${Math.round(r.opsPerSecond).toLocaleString('en-US').padStart(10)}  ${(
        r.opsPerSecond / baseline.opsPerSecond
      ).toFixed(2)}×`,
  );
  return [`${'case'.padEnd(width)}  ${'ops/s'.padStart(10)}  vs ${baseline.name}`, ...lines].join('\n');
}

async function main(): Promise<void> {
  await cryptoReady();
  const signer = new BtAuthSigner(await keypairFromUri('//Alice'));
  const body = submissionBody();
  const headers = signer.signRequest({ method: 'POST', url: '/api/v1/submissions', body, timestamp: 1763683200 });
  const message = buildMessage({
    method: 'POST',
    path: '/api/v1/submissions',
    query: '',
    timestamp: headers['X-Timestamp'],
    canonicalBody: canonicalBody(body),
  });
  const sigHex = headers['X-Signature'];
  const ss58 = headers['X-Hotkey'];
  const messageBytes = Buffer.from(message, 'utf8');
  const sigBytes = Buffer.from(sigHex.slice(2), 'hex');
  const publicKey = decodeAddress(ss58);

  const raw = measure('wasm sr25519Verify (raw)', () => sr25519Verify(sigBytes, messageBytes, publicKey));
  const verify = [
    raw,
    measure('verifySignature (hex + ss58 + verify)', () => verifySignature(message, sigHex, ss58)),
    measure('util-crypto signatureVerify (pure JS)', () => signatureVerify(message, sigHex, ss58).isValid),
  ];
  const canonical = measure(`canonicalBody (${body.length} B body)`, () => canonicalBody(body));
  const reference = measure('JSON.parse + JSON.stringify (reference)', () => JSON.stringify(JSON.parse(body)));

  process.stdout.write(`sr25519 verification, message of ${messageBytes.length} B\n${table(verify, raw)}\n\n`);
  process.stdout.write(`canonical body\n${table([canonical, reference], canonical)}\n`);
  const mib = (canonical.opsPerSecond * body.length) / 2 ** 20;
  process.stdout.write(`canonicalBody: ${mib.toFixed(1)} MiB/s\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
