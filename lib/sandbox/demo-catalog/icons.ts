// The demo packages' icons: small SVGs drawn for olm-console, base64-encoded as FBC carries them.
function svg(body: string, bg: string): string {
  const text = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="${bg}"/>${body}</svg>`;
  return Buffer.from(text).toString('base64');
}

export const icons = {
  elephant: svg(
    '<circle cx="32" cy="30" r="16" fill="#fff"/><rect x="26" y="38" width="6" height="14" rx="3" fill="#fff"/><circle cx="27" cy="27" r="2.5" fill="#1d4e89"/>',
    '#1d4e89',
  ),
  bolt: svg('<path d="M36 8 18 36h12l-4 20 20-30H34z" fill="#fff"/>', '#c2185b'),
  envelope: svg(
    '<rect x="12" y="18" width="40" height="28" rx="3" fill="#fff"/><path d="m12 20 20 14 20-14" fill="none" stroke="#5e35b1" stroke-width="3"/>',
    '#5e35b1',
  ),
  shield: svg(
    '<path d="M32 10 50 17v13c0 12-8 20-18 24-10-4-18-12-18-24V17z" fill="#fff"/><path d="m24 32 6 6 11-12" fill="none" stroke="#2e7d32" stroke-width="4"/>',
    '#2e7d32',
  ),
  keyhole: svg('<circle cx="32" cy="26" r="9" fill="#fff"/><path d="M28 30h8l3 20H25z" fill="#fff"/>', '#37474f'),
  archive: svg(
    '<rect x="12" y="14" width="40" height="10" rx="2" fill="#fff"/><rect x="15" y="26" width="34" height="24" rx="2" fill="#fff"/><rect x="26" y="31" width="12" height="4" rx="2" fill="#ef6c00"/>',
    '#ef6c00',
  ),
  gauge: svg(
    '<path d="M12 42a20 20 0 0 1 40 0" fill="none" stroke="#fff" stroke-width="6"/><path d="m32 42 10-14" stroke="#fff" stroke-width="4" stroke-linecap="round"/>',
    '#00838f',
  ),
  chip: svg(
    '<rect x="18" y="18" width="28" height="28" rx="4" fill="#fff"/><rect x="25" y="25" width="14" height="14" fill="#558b2f"/><path d="M24 12v6m8-6v6m8-6v6M24 46v6m8-6v6m8-6v6M12 24h6m-6 8h6m-6 8h6M46 24h6m-6 8h6m-6 8h6" stroke="#fff" stroke-width="3"/>',
    '#558b2f',
  ),
  flag: svg(
    '<path d="M18 10v46" stroke="#fff" stroke-width="4"/><path d="M20 12h26l-6 9 6 9H20z" fill="#fff"/>',
    '#f9a825',
  ),
  gateway: svg('<path d="M10 50V26L32 12l22 14v24H42V34H22v16z" fill="#fff"/>', '#283593'),
  route: svg(
    '<circle cx="16" cy="46" r="6" fill="#fff"/><circle cx="48" cy="18" r="6" fill="#fff"/><path d="M16 40c0-14 32-8 32-22" fill="none" stroke="#fff" stroke-width="4"/>',
    '#6d4c41',
  ),
  scroll: svg(
    '<rect x="16" y="12" width="32" height="40" rx="3" fill="#fff"/><path d="M22 22h20M22 30h20M22 38h12" stroke="#0277bd" stroke-width="3"/>',
    '#0277bd',
  ),
  blocks: svg(
    '<rect x="12" y="34" width="18" height="18" fill="#fff"/><rect x="34" y="34" width="18" height="18" fill="#fff"/><rect x="23" y="12" width="18" height="18" fill="#fff"/>',
    '#8e24aa',
  ),
};
