import { PDFDocument, StandardFonts, rgb } from "pdf-lib";

/**
 * The stand-in file of test mode (DESIGN §17): while no file is uploaded for a product, a test
 * order's download is a one-page PDF saying what it stands for, so the whole path can be tried on a
 * fresh store. Live mode never gets here: it does not start while a product has no file.
 */
export async function testDeliveryPdf({ productName, orderNumber, createdAt }: { productName: string; orderNumber: string; createdAt: Date }): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Test delivery: ${productName}`);
  pdf.setCreationDate(createdAt);
  pdf.setModificationDate(createdAt);
  const page = pdf.addPage([595.28, 841.89]);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const lines: [string, typeof bold, number][] = [
    ["Test delivery", bold, 28],
    [`Product: ${productName}`, regular, 14],
    [`Order: ${orderNumber}`, regular, 14],
    ["", regular, 14],
    ["This file is a test delivery of this product for this order.", regular, 12],
    ["The store runs in test mode and has no file uploaded for the product yet.", regular, 12],
    ["Upload the real file in the back office (Files) or with", regular, 12],
    [`npm run admin -- add-file <product id> <file>`, regular, 12],
  ];
  let y = 760;
  for (const [text, font, size] of lines) {
    if (text) page.drawText(text, { x: 56, y, size, font, color: rgb(0.1, 0.1, 0.1) });
    y -= size * 1.8;
  }
  return pdf.save({ useObjectStreams: false });
}
