// The console's bundle image pull settings, as a route test sets them between its tests: whether
// it pulls at all (OLM_CONSOLE_PULL_BUNDLE_IMAGES), which CA it trusts and which registries it may
// reach on a private address (the test's own registries listen on 127.0.0.1). The bundles read
// before are forgotten, so that the next answer comes from the new settings, not from memory.
import { forgetBundlesInMemory } from '../bundle-images/bundle-cache';

/** Turns the console's bundle image pulls on or off, trusting `caFile` and the registries at `hosts`. */
export function setBundlePulls(on: boolean, caFile: string, hosts: string): void {
  forgetBundlesInMemory();
  if (on) process.env.OLM_CONSOLE_PULL_BUNDLE_IMAGES = 'true';
  else delete process.env.OLM_CONSOLE_PULL_BUNDLE_IMAGES;
  process.env.OLM_CONSOLE_REGISTRY_CA_FILE = caFile;
  process.env.OLM_CONSOLE_PRIVATE_REGISTRIES = hosts;
}
