import type { Argv } from 'yargs';
import { canonicalSs58 } from '@rcs/auth';
import { ChainConfigError, ChainUnavailableError, chainConfigFromEnv, ClaimContractError, closeChainAdapters, createChainAdapters, type ClaimContractPort, type HexHash } from '@rcs/chain';
import type { JsonDocument } from '@rcs/client';
import type { ClaimPackageDto } from '@rcs/contracts';
import { verifyClaimPackage, type ClaimPackage } from '@rcs/merkle';
import type { CommandContext, GlobalArgs } from '../context';
import { CliRefusedError, CliUnreachableError, CliUsageError } from '../errors';
import { fields } from '../output/io';
import type { Handle } from './handle';

export function payoutCommands(yargs: Argv<GlobalArgs>, handle: Handle): Argv<GlobalArgs> {
  return yargs
    .command('payout', 'Payouts: status [hotkey] | verify [hotkey] | claim (your Merkle package, checked against the claim contract, claimed on chain)', (y) =>
      y
        .command(
          'status [hotkey]',
          'The newest package of a hotkey (yours by default): recipient, cumulative amount, already claimed',
          (z) => z.positional('hotkey', { type: 'string', describe: 'SS58 hotkey (any prefix)' }),
          handle(async (ctx, args) => {
            const hotkey = args.hotkey ?? (await ctx.signer()).hotkey;
            const pool = await ctx.pool();
            const pkg = await pool.claimPackage(hotkey);
            packageOf(pkg, hotkey, null);
            const claimed = await withContract(ctx, (contract) => contract.claimedCumulativeRao(hotkey)).then(
              (rao) => rao.toString(),
              (error: unknown) => (error instanceof CliUnreachableError ? `unknown (${error.message})` : Promise.reject(error)),
            );
            ctx.print(pkg, (p) => {
              const left = /^\d+$/.test(claimed) ? (BigInt(p.amount) - BigInt(claimed)).toString() : 'unknown';
              return fields([
                ['hotkey', p.hotkey],
                ['epoch', p.epoch],
                ['recipient', p.recipient_coldkey],
                ['cumulative', `${p.amount} rao`],
                ['claimed', /^\d+$/.test(claimed) ? `${claimed} rao` : claimed],
                ['claimable', /^\d+$/.test(left) ? `${left} rao` : left],
                ['leaf', `${p.index} of ${p.leaf_count}`],
              ]);
            });
          }),
        )
        .command(
          'verify [hotkey]',
          "Check the package against the root and leaf count the claim contract holds (not the pool's)",
          (z) => z.positional('hotkey', { type: 'string', describe: 'SS58 hotkey (yours by default)' }).option('epoch', { type: 'number', describe: 'That epoch (default: the newest)' }),
          handle(async (ctx, args) => {
            const hotkey = args.hotkey ?? (await ctx.signer()).hotkey;
            const pkg = await (await ctx.pool()).claimPackage(hotkey, args.epoch ?? null);
            const { value } = await verifiedPackage(ctx, pkg, hotkey, args.epoch ?? null);
            ctx.print(pkg, () => `ok: epoch ${value.epoch}, leaf ${value.index} of ${value.leaf_count}, amount ${value.amount} to ${value.recipient_coldkey}; the proof leads to the contract's root ${value.root}\n`);
          }),
        )
        .command(
          'claim',
          "Claim what your newest package pays: claim_single on the claim contract (the dev contract on the local stack, CHAIN=polkadot for a real chain)",
          (z) => z.option('epoch', { type: 'number', describe: 'Claim with that epoch’s package (default: the newest)' }),
          handle(async (ctx, args) => {
            const signer = await ctx.signer();
            const pair = await ctx.keypair();
            for (let attempt = 1; ; attempt += 1) {
              const pkg = await (await ctx.pool()).claimPackage(signer.hotkey, args.epoch ?? null);
              // The fee is the signer's: only the signer's own package (of the epoch asked for) is signed for.
              const { value } = await verifiedPackage(ctx, pkg, signer.hotkey, args.epoch ?? null);
              try {
                const receipt = await claimWith(ctx, value, pair);
                return printReceipt(ctx, value, receipt);
              } catch (error) {
                // A newer epoch was published while this one was being claimed (short windows, as on the local stack):
                // its package pays the same cumulative amount and more, so the newest one is fetched and claimed instead.
                const superseded = error instanceof CliRefusedError && error.message.startsWith('epoch_not_claimable:');
                if (!superseded || args.epoch !== undefined || attempt === SUPERSEDED_RETRIES) throw error;
                ctx.note(`epoch ${value.epoch} was superseded while claiming; claiming with the newest package`);
              }
            }
          }),
        )
        .demandCommand(1, 'name a payout command: status, verify or claim'),
    )
    .command('recipient', 'Where your payouts go: set <coldkey>', (y) =>
      y
        .command(
          'set <coldkey>',
          'Set the coldkey your next claims pay (signed by your hotkey)',
          (z) => z.positional('coldkey', { type: 'string', demandOption: true, describe: 'SS58 coldkey' }),
          handle(async (ctx, args) => {
            const answer = await (await ctx.pool({ signed: true })).setRecipient(args.coldkey);
            ctx.print(answer, () => `recipient of ${ctx.signerHotkey()} is now ${args.coldkey}\n`);
          }),
        )
        .demandCommand(1, 'name a recipient command: set'),
    );
}

/** Attempts of `payout claim` while newer epochs supersede the one being claimed. */
const SUPERSEDED_RETRIES = 3;

type ClaimReceipt = Awaited<ReturnType<ClaimContractPort['claimSingle']>>;

/** claim_single with the verified package, refused first with the contract's own reason when it would fail. */
async function claimWith(ctx: CommandContext, value: ClaimPackage, pair: Parameters<ClaimContractPort['claimSingle']>[2]): Promise<ClaimReceipt> {
  return withContract(ctx, async (contract) => {
    const state = await contract.claimState();
    const epoch = await contract.epochInfo(value.epoch);
    if (epoch?.disputed) throw new CliRefusedError(`claims_locked: epoch ${value.epoch} is challenged; claims are locked until the challenge is resolved`);
    if (epoch !== null && state.currentBlock < epoch.claimsOpenAt) throw new CliRefusedError(`claims_not_open: epoch ${value.epoch} accepts claims from block ${epoch.claimsOpenAt} (now ${state.currentBlock})`);
    const claimed = await contract.claimedCumulativeRao(value.hotkey);
    if (claimed >= BigInt(value.amount)) throw new CliRefusedError(`nothing_to_claim: ${value.hotkey} has claimed ${claimed} rao of its cumulative ${value.amount}`);
    return contract.claimSingle(
      { epoch: value.epoch, index: value.index, hotkey: value.hotkey, recipientColdkey: value.recipient_coldkey, amount: BigInt(value.amount), proof: value.proof as HexHash[] },
      true,
      pair,
    );
  });
}

function printReceipt(ctx: CommandContext, value: ClaimPackage, receipt: ClaimReceipt): void {
  const paid = receipt.paidRao?.toString() ?? 'unknown';
  const result = { epoch: value.epoch, hotkey: value.hotkey, recipient_coldkey: value.recipient_coldkey, paid_rao: paid, block: receipt.block, tx_hash: receipt.txHash };
  if (ctx.json) ctx.io.stdout(`${JSON.stringify(result)}\n`);
  else ctx.io.stdout(fields([['paid', `${paid} rao`], ['to', value.recipient_coldkey], ['epoch', value.epoch], ['block', receipt.block], ['tx', receipt.txHash]]));
}

/**
 * The package the pool answered, refused (exit 1) unless it is the one asked for: the hotkey's (any SS58 spelling of
 * it), and of `epoch` when one was asked for. The claim contract pays whichever package it is given and the caller
 * pays the fee, so a pool that answers someone else's package must not make `rcs` sign for it.
 */
function packageOf(pkg: JsonDocument<ClaimPackageDto>, hotkey: string, epoch: number | null): ClaimPackage {
  const value = pkg.value;
  const wanted = canonicalSs58(hotkey) ?? hotkey;
  if (canonicalSs58(value.hotkey) !== wanted) throw new CliRefusedError(`wrong_package: the pool answered the package of ${JSON.stringify(value.hotkey)} for ${wanted}; nothing was signed`);
  if (epoch !== null && value.epoch !== epoch) throw new CliRefusedError(`wrong_package: the pool answered epoch ${value.epoch} for epoch ${epoch}; nothing was signed`);
  // The checked DTO; the Merkle code types its hex fields as `0x…` (verifyClaimPackage checks them).
  return value as ClaimPackage;
}

/** The package of `hotkey` (and `epoch`), checked against the epoch the contract holds; refused (exit 1) when it is another's or does not verify. */
async function verifiedPackage(ctx: CommandContext, pkg: JsonDocument<ClaimPackageDto>, hotkey: string, askedEpoch: number | null): Promise<{ value: ClaimPackage }> {
  const value = packageOf(pkg, hotkey, askedEpoch);
  const epoch = await withContract(ctx, (contract) => contract.epochInfo(value.epoch));
  if (epoch === null) throw new CliRefusedError(`unknown_epoch: the claim contract holds no epoch ${value.epoch}`);
  const verdict = verifyClaimPackage(value, { root: epoch.root, leafCount: epoch.numOfLeaves });
  if (!verdict.ok) throw new CliRefusedError(`the package does not verify against the contract's epoch ${value.epoch}: ${verdict.reason}`);
  return { value };
}

/** Runs `work` on the configured claim contract and closes it; chain failures become exit 3, refusals exit 1. */
async function withContract<T>(ctx: CommandContext, work: (contract: ClaimContractPort) => Promise<T>): Promise<T> {
  let config;
  try {
    config = chainConfigFromEnv(ctx.settings.chainEnv);
  } catch (error) {
    if (error instanceof ChainConfigError) throw new CliUsageError(error.message);
    throw error;
  }
  const adapters = await createChainAdapters(config);
  try {
    return await work(adapters.claimContract);
  } catch (error) {
    if (error instanceof ClaimContractError) throw new CliRefusedError(`${error.code}: ${error.message}`);
    if (error instanceof CliRefusedError) throw error;
    if (error instanceof ChainUnavailableError) throw new CliUnreachableError(`the claim contract is unreachable: ${error.message}`);
    throw new CliUnreachableError(`the claim contract (${config.chain}) failed: ${(error as Error).message}`);
  } finally {
    await closeChainAdapters(adapters);
  }
}
