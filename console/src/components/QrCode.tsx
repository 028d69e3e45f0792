import { useEffect, useState } from 'react';

/**
 * `text` as a QR code, encoded here in the browser and drawn as one SVG path: the setup link
 * never leaves the page. The encoder loads on first use, outside the console's first download.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const [modules, setModules] = useState<boolean[][] | null>(null);
  useEffect(() => {
    let current = true;
    import('uqr').then(({ encode }) => {
      if (current) setModules(encode(text, { ecc: 'M', border: 4 }).data);
    });
    return () => {
      current = false;
    };
  }, [text]);
  if (!modules) return <div className="qr qr-loading" aria-busy="true" />;
  const size = modules.length;
  let path = '';
  modules.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    });
  });
  return (
    <svg
      className="qr"
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
      data-testid="totp-qr"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
