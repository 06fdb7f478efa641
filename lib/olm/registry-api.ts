// The operator-registry gRPC API's messages as plain objects (docs/olm/registry-api.md), shared
// by the sandbox's registry server, the console's registry client and the conversion back to FBC.

export interface GvkMessage {
  group: string;
  version: string;
  kind: string;
  plural: string;
}

export interface DeprecationMessage {
  message: string;
}

export interface BundleMessage {
  csvName: string;
  packageName: string;
  channelName: string;
  csvJson: string;
  object: string[];
  bundlePath: string;
  providedApis: GvkMessage[];
  requiredApis: GvkMessage[];
  version: string;
  skipRange: string;
  dependencies: { type: string; value: string }[];
  properties: { type: string; value: string }[];
  replaces: string;
  skips: string[];
  deprecation?: DeprecationMessage | null;
}

export interface PackageMessage {
  name: string;
  channels: { name: string; csvName: string; deprecation?: DeprecationMessage | null }[];
  defaultChannelName: string;
  deprecation?: DeprecationMessage | null;
}

export interface ChannelEntryMessage {
  packageName: string;
  channelName: string;
  bundleName: string;
  replaces: string;
}
