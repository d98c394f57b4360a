/**
 * An SVG drawing (draw.ts) as PNG, for `graphs/png`: rasterised by resvg (a Rust renderer behind
 * a prebuilt Node addon from the npm registry) off the event loop, white background, the
 * machine's fonts (the image installs DejaVu; without fonts the boxes and lines are drawn and the
 * text is not).
 */
import { renderAsync } from '@resvg/resvg-js'

export async function svgToPng(svg: string, signal?: AbortSignal): Promise<Buffer> {
  const image = await renderAsync(svg, { background: '#ffffff', fitTo: { mode: 'original' }, font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' }, logLevel: 'off' }, signal ?? null)
  return image.asPng()
}
