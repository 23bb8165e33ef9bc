/** What the operator routes (`/readyz`, `/metrics`) read from the instance; the runtime implements them. */

/** One named readiness check as a probe reports it; `reason` says why a failed one failed. */
export interface CheckResult {
  name: string;
  ok: boolean;
  reason?: string;
}

export interface ReadinessReport {
  ready: boolean;
  checks: CheckResult[];
}

/** What `/readyz` asks: whether everything the instance needs to serve is there. */
export interface ReadinessProbe {
  probe(): Promise<ReadinessReport>;
}

/** The instance's metrics in the Prometheus text format. */
export interface MetricsExposition {
  readonly contentType: string;
  text(): Promise<string>;
}
