import type { SandboxClock } from '../clock/clock.js';
import type { EnvironmentName } from '../config/environment-config.js';
import type { RunningEnvironment } from '../environment/start-environment.js';
import type { SmsInbox } from '../operator/sms-inbox.js';
import { readStateFile } from './state-file.js';
import { observedClock, StateKeeper } from './state-keeper.js';
import type { EnvironmentState, SandboxState } from './state-snapshot.js';

/** What a state file keeps: the shared clock and SMS inbox, and both environments. */
export interface PersistedParts {
  clock: SandboxClock;
  sms: SmsInbox;
  environments: Record<EnvironmentName, RunningEnvironment>;
}

/**
 * A sandbox's state file from start to close: what was saved is carried over to the new clock, SMS
 * inbox and environments, then the state is saved again after every change.
 */
export class StatePersistence {
  private keeper: StateKeeper | undefined;

  private constructor(
    private readonly path: string,
    private readonly saved: SandboxState | undefined,
    private readonly log: (line: string) => void,
  ) {}

  /** Reads the file (no file yet is fine). Throws SandboxConfigError for a file that cannot be used. */
  static open(path: string, log: (line: string) => void): StatePersistence {
    return new StatePersistence(path, readStateFile(path), log);
  }

  /**
   * Moves a fresh clock to where the saved time has got to, and returns it watched, so that
   * expiries, renewals and webhook attempts that run between requests are saved too.
   */
  async resumeClock(clock: SandboxClock): Promise<SandboxClock> {
    if (this.saved) await continueClock(clock, this.saved);
    return observedClock(clock, () => this.changed());
  }

  restoreSms(sms: SmsInbox): void {
    if (this.saved) sms.restore(this.saved.sms);
  }

  /**
   * Puts each environment's saved state back. Saved webhook URLs come back only where
   * `keepSavedUrls` says so: a URL given at start wins over the file.
   */
  restoreEnvironments(
    environments: Record<EnvironmentName, RunningEnvironment>,
    keepSavedUrls: Record<EnvironmentName, boolean>,
  ): void {
    if (!this.saved) return;
    for (const name of ['sandbox', 'production'] as const) {
      restoreEnvironment(
        environments[name],
        this.saved.environments[name],
        this.saved.clockNow,
        keepSavedUrls[name],
      );
    }
    this.log(`state restored from ${this.path}`);
  }

  /** Saves now, and after every change from now on. */
  startSaving(parts: PersistedParts): void {
    this.keeper = new StateKeeper(this.path, () => snapshotOf(parts), this.log);
    this.keeper.changed();
  }

  /** Something changed: save soon. */
  changed(): void {
    this.keeper?.changed();
  }

  /** Saves the last changes and resolves once the file is written. */
  async close(): Promise<void> {
    if (!this.keeper) return;
    this.keeper.changed();
    await this.keeper.flush();
  }
}

/**
 * Moves a fresh clock to where the saved sandbox time has got to: a frozen clock resumes at the
 * saved instant, a real-time one also counts the wall time that passed while the sandbox was stopped.
 */
async function continueClock(clock: SandboxClock, saved: SandboxState): Promise<void> {
  const stoppedMs = clock.frozen ? 0 : Math.max(0, Date.now() - saved.savedAt.getTime());
  const behindMs = saved.clockNow.getTime() + stoppedMs - clock.now().getTime();
  if (behindMs > 0) await clock.advance(behindMs / 1000);
}

function snapshotOf({ clock, sms, environments }: PersistedParts): SandboxState {
  return {
    savedAt: new Date(),
    clockNow: clock.now(),
    sms: [...sms.all()],
    environments: {
      sandbox: environmentState(environments.sandbox),
      production: environmentState(environments.production),
    },
  };
}

function environmentState(env: RunningEnvironment): EnvironmentState {
  return {
    issued: env.review.list(),
    webhookUrls: env.outbox.webhookUrls(),
    payments: env.payments.list(),
    owned: env.payments.ownedKeys(),
    subscriptions: env.subscriptions.list(),
    webhooks: [...env.outbox.list()],
  };
}

function restoreEnvironment(
  env: RunningEnvironment,
  state: EnvironmentState,
  savedClockNow: Date,
  keepSavedUrls: boolean,
): void {
  env.review.restore(state.issued.filter(({ clientId }) => env.catalog.application(clientId)));
  env.outbox.restore(state.webhooks, keepSavedUrls ? state.webhookUrls : {});
  env.payments.restore(state.payments, state.owned);
  env.subscriptions.restore(state.subscriptions, savedClockNow);
}
