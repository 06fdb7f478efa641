// The person's tokens for the fleet's other clusters (app/api/fleet/tokens, app/api/fleet/clusters/
// [name]/token): which clusters have one and who each cluster says it is; never the tokens.

export interface FleetTokenCluster {
  name: string;
  home: boolean;
  /** The token added for this cluster in this session, if any. */
  token?: { username: string; addedAt: string };
}

/** GET /api/fleet/tokens. */
export interface FleetTokens {
  /** The person logs in with a token (or an identity provider), so tokens can be added per cluster. */
  perUser: boolean;
  /** The login token (or ID token) goes to every cluster, not only the home one. */
  loginTokenTravels: boolean;
  clusters: FleetTokenCluster[];
}

/** POST /api/fleet/clusters/<name>/token {token}: the cluster's word on who the token is. */
export interface FleetTokenAdded {
  cluster: string;
  username: string;
}

/** DELETE /api/fleet/clusters/<name>/token. */
export interface FleetTokenRemoved {
  cluster: string;
  removed: boolean;
}
