/** `auto`: namespaces where the worker can create them, else none (said once in the worker log and in each job log). */
export type SandboxMode = 'auto' | 'namespaces' | 'off';

/** `none`: a network namespace with only loopback; `egress`: the host's network minus the service's own ports. */
export type SandboxNetwork = 'none' | 'egress';

/** Per-step resource limits (rlimits of every step process, plus the executor's watchdog over the job's processes). */
export interface StepLimits {
  /**
   * Resident memory of the job's processes together (the watchdog kills the step there); each process's private
   * writable memory is also capped at twice this (RLIMIT_DATA: an allocation beyond fails at once). RLIMIT_AS is not
   * used: address-space reservations (V8's WebAssembly guard regions, ASan) would fail far below any real use.
   */
  memoryMb: number;
  /** Processes and threads of the step user (RLIMIT_NPROC; the watchdog kills the step at the limit). */
  maxProcesses: number;
  /** CPU time of each process (RLIMIT_CPU: SIGXCPU, then SIGKILL 5 s later). */
  cpuSeconds: number;
  /** Largest file a step may write (RLIMIT_FSIZE: SIGXFSZ / "File too large"). */
  fileSizeMb: number;
  /** Bytes a step may print, kept or discarded past the log cap; beyond it the step is killed. */
  maxOutputBytes: number;
}

export interface SandboxSettings {
  mode: SandboxMode;
  network: SandboxNetwork;
  /** User ids of steps when the worker is root: each job gets one from this range (inclusive). */
  runAsUid: { first: number; last: number };
  /** Group id of steps; null: the same number as the job's uid. */
  runAsGid: number | null;
  /** TCP ports steps may not reach on any local address of this host (egress): Postgres, Redis, the API, extra ones. */
  blockedPorts: number[];
  /** Service endpoints on other hosts steps may not reach (egress): a remote Postgres or Redis. */
  blockedEndpoints: Array<{ host: string; port: number }>;
  /** Directories (hidden under an empty tmpfs) and files (hidden under /dev/null) steps may not see. */
  hiddenPaths: string[];
  limits: StepLimits;
  /** The iptables/ip6tables chain that holds the egress rules (jumped to from OUTPUT). */
  firewallChain: string;
}

export const DEFAULT_STEP_LIMITS: StepLimits = {
  memoryMb: 4096,
  maxProcesses: 1024,
  cpuSeconds: 7200,
  fileSizeMb: 4096,
  maxOutputBytes: 1024 * 1024 * 1024,
};

/**
 * What {@link runWorkflow} uses when the caller gives no settings: namespaces where possible, no network (so a
 * library caller never changes the host's firewall), the default limits. The service passes its configuration.
 */
export const DEFAULT_SANDBOX_SETTINGS: SandboxSettings = {
  mode: 'auto',
  network: 'none',
  runAsUid: { first: 60000, last: 60999 },
  runAsGid: null,
  blockedPorts: [],
  blockedEndpoints: [],
  hiddenPaths: [],
  limits: DEFAULT_STEP_LIMITS,
  firewallChain: 'CI_REPLAY_STEPS',
};
