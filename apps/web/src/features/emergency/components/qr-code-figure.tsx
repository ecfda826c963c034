import { QRCodeSVG } from 'qrcode.react';

/** SPEC §9: the dashboard QR image is 180 px wide, highest error-correction level, with a margin. */
export const QR_IMAGE_SIZE = 180;

/**
 * The emergency QR code as SVG (crisp at any zoom, prints well on a card) with its link under it.
 * Level H keeps it readable when a sticker is scratched or a logo covers part of it.
 */
export function QrCodeFigure({ link, label, size = QR_IMAGE_SIZE }: { link: string; label: string; size?: number }) {
  return (
    <figure className="flex flex-col items-center gap-2">
      <QRCodeSVG
        value={link}
        size={size}
        level="H"
        marginSize={4}
        bgColor="#ffffff"
        fgColor="#000000"
        role="img"
        aria-label={label}
        className="rounded-md border border-slate-200 bg-white"
      />
      <figcaption className="max-w-full text-center text-sm">
        <a
          href={link}
          // A link reads left to right in Arabic too.
          dir="ltr"
          target="_blank"
          rel="noopener noreferrer"
          className="break-all font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900"
        >
          {link}
        </a>
      </figcaption>
    </figure>
  );
}
