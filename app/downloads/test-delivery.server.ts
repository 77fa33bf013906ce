import { PDFDocument, StandardFonts, rgb } from "pdf-lib";

/**
 * The stand-in file of test mode: a test order's download is always a one-page PDF
 * saying what it stands for, so the whole path can be tried on a fresh store or a live one. When a
 * file is stored it names that file and its size, never giving its bytes: a test card must not be a
 * way to the paid file (docs/decisions/0032-hardening-second-round.md).
 */
export async function testDeliveryPdf({
  productName,
  orderNumber,
  createdAt,
  stored = null,
}: {
  productName: string;
  orderNumber: string;
  createdAt: Date;
  stored?: { fileName: string; bytes: number } | null;
}): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Test delivery: ${productName}`);
  pdf.setCreationDate(createdAt);
  pdf.setModificationDate(createdAt);
  const page = pdf.addPage([595.28, 841.89]);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const about: string[] = stored
    ? [
        "A real order of this product gets the stored file",
        `${stored.fileName} (${stored.bytes} bytes).`,
        "Test orders never get its bytes: read it in the back office (Files).",
      ]
    : ["No file is uploaded for the product yet.", "Upload the real file in the back office (Files) or with", `npm run admin -- add-file <product id> <file>`];
  const lines: [string, typeof bold, number][] = [
    ["Test delivery", bold, 28],
    [`Product: ${productName}`, regular, 14],
    [`Order: ${orderNumber}`, regular, 14],
    ["", regular, 14],
    ["This file is a test delivery of this product for this test order.", regular, 12],
    ...about.map((text): [string, typeof bold, number] => [text, regular, 12]),
  ];
  let y = 760;
  for (const [text, font, size] of lines) {
    if (text) page.drawText(text, { x: 56, y, size, font, color: rgb(0.1, 0.1, 0.1) });
    y -= size * 1.8;
  }
  return pdf.save({ useObjectStreams: false });
}
