// A CatalogSource's health in words: OLM records the gRPC connectivity state of its connection
// to the catalog's registry; only READY lets Subscriptions from it resolve.
import type { CatalogSource } from '../resources/catalog-source';
import type { Subscription } from '../resources/subscription';

export interface CatalogHealth {
  state: string;
  healthy: boolean;
  lastConnect?: string;
  explanation: string;
}

const EXPLANATIONS: Record<string, string> = {
  READY: "OLM is connected to the catalog's registry and can resolve Subscriptions from it.",
  CONNECTING: "OLM is connecting to the catalog's registry; Subscriptions from it wait until it is ready.",
  IDLE: 'The connection is idle; OLM reconnects when it next needs the catalog.',
  TRANSIENT_FAILURE:
    "OLM cannot reach the catalog's registry: its pod is not serving (an image that cannot be pulled, a crashing registry, a network policy) or its address does not answer. Subscriptions from it cannot resolve and report CatalogSourcesUnhealthy until it recovers; OLM keeps retrying.",
  SHUTDOWN: 'OLM has closed the connection to this catalog; Subscriptions from it cannot resolve.',
};

export function catalogHealth(cs: CatalogSource): CatalogHealth {
  const state = cs.status?.connectionState?.lastObservedState || 'UNKNOWN';
  const explanation =
    EXPLANATIONS[state] ??
    (cs.spec.sourceType === 'grpc' || !cs.spec.sourceType
      ? 'OLM has not reported a connection to this catalog yet.'
      : `OLM serves ${cs.spec.sourceType} catalogs itself; no connection state is recorded.`);
  const message = cs.status?.message && state !== 'READY' ? ` OLM says: ${cs.status.message}` : '';
  return {
    state,
    healthy: state === 'READY',
    ...(cs.status?.connectionState?.lastConnect ? { lastConnect: cs.status.connectionState.lastConnect } : {}),
    explanation: explanation + message,
  };
}

/** Subscriptions held back by an unhealthy catalog (their CatalogSourcesUnhealthy condition is True). */
export function blockedByUnhealthyCatalogs(subs: readonly Subscription[]): Subscription[] {
  return subs.filter((s) =>
    s.status?.conditions?.some((c) => c.type === 'CatalogSourcesUnhealthy' && c.status === 'True'),
  );
}
